// What the scrypt cost costs a sign-in: hashPassword and verifyPassword timed one after another at
// each cost (default 15 and 17, or BENCH_COSTS=15,16,17), BENCH_RUNS times each (default 20). Sign-in
// verifies once (and hashes once more, the first time after the cost was raised). Prints figures.
import { hashPassword, verifyPassword } from '../src/domain/passwords';

const COSTS = (process.env.BENCH_COSTS ?? '15,17').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function timed(call: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await call();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b);
}

const line = (label: string, times: number[]) =>
  `${label.padEnd(26)} p50 ${percentile(times, 50).toFixed(0).padStart(5)} ms  p90 ${percentile(times, 90)
    .toFixed(0)
    .padStart(5)} ms  min ${times[0]!.toFixed(0).padStart(5)} ms`;

async function main() {
  console.log(`scrypt r 8, p 1; ${RUNS} runs each, sequential`);
  for (const cost of COSTS) {
    const stored = await hashPassword('correct horse battery', cost);
    const hashes = await timed(() => hashPassword('correct horse battery', cost));
    const verifies = await timed(() => verifyPassword('correct horse battery', stored));
    const mib = (128 * 2 ** cost * 8) / 2 ** 20;
    console.log(line(`hash   N 2^${cost} (${mib} MiB)`, hashes));
    console.log(line(`verify N 2^${cost} (${mib} MiB)`, verifies));
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
