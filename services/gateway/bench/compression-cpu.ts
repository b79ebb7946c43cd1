/**
 * `npm run bench -- compression`: how much smaller a search answer is compressed, and what compressing
 * it costs the gateway.
 *
 * The search service in this process on the embedded MongoDB (the search harness), behind the real
 * gateway with its rate limit out of reach. The same anonymous bridging search (the largest answer) is sent one after another, in alternating blocks,
 * without Accept-Encoding and with `Accept-Encoding: gzip, deflate, br` (brotli chosen), through
 * node:http (which, unlike fetch, leaves the body encoded, so the client decodes nothing). The
 * process's CPU per search (user + system) is measured for each; everything but the encoding is the
 * same, so the difference is the compression's. Then the answer alone through each encoder.
 *
 *   COMPRESSION_CPU_CALLS (default 300)   searches per kind in each round
 *   COMPRESSION_CPU_ROUNDS (default 5)    rounds, alternating; the median round is reported
 */
import { startTestGateway } from '@lsp/gateway/testing';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import {
  BRIDGING_PAYLOAD,
  COMMERCIAL_PAYLOAD,
  DEVELOPMENT_PAYLOAD,
  startSearchHarness,
} from '../../search/test/search-harness';

const CALLS = Number(process.env.COMPRESSION_CPU_CALLS ?? 300);
const ROUNDS = Number(process.env.COMPRESSION_CPU_ROUNDS ?? 5);

function post(url: string, body: string, acceptEncoding: string | null) {
  return new Promise<{ status: number; encoding: string | undefined; bytes: Buffer }>((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            encoding: res.headers['content-encoding'],
            bytes: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main() {
  const harness = await startSearchHarness();
  // A gateway of its own in front of the harness's search service, with no rate limit to reach.
  const searchPort = (harness.search.server.address() as AddressInfo).port;
  const gateway = await startTestGateway({
    redisUrl: harness.redisUrl,
    upstreams: { search: `http://127.0.0.1:${searchPort}` },
    env: { RATE_LIMIT_MAX: '100000000', LOG_LEVEL: 'silent' },
  });
  const url = `${gateway.url}/api/bridging`;
  const body = JSON.stringify(BRIDGING_PAYLOAD);
  const ACCEPT = 'gzip, deflate, br';

  const plain = await post(url, body, null);
  const compressed = await post(url, body, ACCEPT);
  if (plain.status !== 200 || compressed.status !== 200) throw new Error(`search answered ${plain.status}`);
  if (compressed.encoding !== 'br') throw new Error(`expected brotli, got ${compressed.encoding}`);

  const sizes: string[] = [];
  for (const [loanType, payload] of Object.entries({
    development: DEVELOPMENT_PAYLOAD,
    bridging: BRIDGING_PAYLOAD,
    commercial: COMMERCIAL_PAYLOAD,
  })) {
    const searchUrl = `${gateway.url}/api/${loanType}`;
    const asIs = await post(searchUrl, JSON.stringify(payload), null);
    const br = await post(searchUrl, JSON.stringify(payload), ACCEPT);
    const gz = await post(searchUrl, JSON.stringify(payload), 'gzip');
    sizes.push(
      `  ${loanType}: ${kb(asIs.bytes.length)} plain, ${kb(br.bytes.length)} brotli, ${kb(gz.bytes.length)} gzip`,
    );
  }

  async function block(acceptEncoding: string | null, calls: number): Promise<number> {
    const before = process.cpuUsage();
    for (let i = 0; i < calls; i++) {
      const res = await post(url, body, acceptEncoding);
      if (res.status !== 200) throw new Error(`search answered ${res.status}`);
    }
    const used = process.cpuUsage(before);
    return (used.user + used.system) / calls;
  }
  await block(null, 100);
  await block(ACCEPT, 100);
  const without: number[] = [];
  const withBrotli: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    without.push(await block(null, CALLS));
    withBrotli.push(await block(ACCEPT, CALLS));
  }

  // The answer alone through each encoder, on the event loop here (the gateway uses the thread pool).
  const encoders: Array<[string, (b: Buffer) => Buffer]> = [
    [
      'brotli q4 (the gateway)',
      (b) => zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }),
    ],
    ['gzip level 6 (the gateway)', (b) => zlib.gzipSync(b)],
    ['brotli q11 (zlib default)', (b) => zlib.brotliCompressSync(b)],
  ];
  const encoderLines = encoders.map(([name, encode]) => {
    const times = 200;
    let size = 0;
    const before = process.cpuUsage();
    for (let i = 0; i < times; i++) size = encode(plain.bytes).length;
    const used = process.cpuUsage(before);
    return `  ${name}: ${kb(size)}, ${((used.user + used.system) / times).toFixed(0)} µs CPU`;
  });

  const line = (label: string, values: number[]) =>
    `  ${label}: ${median(values).toFixed(0)} µs CPU per search (rounds: ${values.map((v) => v.toFixed(0)).join(', ')})`;
  const extra = median(withBrotli) - median(without);
  process.stdout.write(
    [
      'A search answer as the gateway sends it (anonymous, the default panel):',
      ...sizes,
      `Bridging searches (the largest answer); search service, gateway and client in one process, ${ROUNDS} rounds × ${CALLS} searches each:`,
      line('without Accept-Encoding', without),
      line('brotli accepted        ', withBrotli),
      `  compression's share: ${extra.toFixed(0)} µs per search (${((extra / median(without)) * 100).toFixed(1)}%)`,
      'The answer alone through each encoder:',
      ...encoderLines,
      '',
    ].join('\n'),
  );
  await gateway.close();
  await harness.close();
}

main().catch((err) => {
  process.stderr.write(`✖ ${err.stack ?? err.message}\n`);
  process.exit(1);
});
