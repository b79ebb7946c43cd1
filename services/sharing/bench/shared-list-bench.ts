// GET /api/shared and GET /api/shared/unread-count through the gateway for a recipient with 1,000
// DIPs shared with them (one after another: the latency of one page load, not throughput). Runs in
// this process on the embedded MongoDB (or MONGO_URL) and the machine's Redis. Prints figures only.
import { randomUUID } from 'node:crypto';
import type { DipProjection, RecipientShare } from '../src/data/collections';
import { SNAPSHOT, startSharingHarness } from '../test/sharing-harness';

const SHARES = Number(process.env.BENCH_SHARES ?? 1000);
const LIST_CALLS = Number(process.env.BENCH_LIST_CALLS ?? 100);
const COUNT_CALLS = Number(process.env.BENCH_COUNT_CALLS ?? 500);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function timed(calls: number, call: () => Promise<{ status: number }>) {
  const latencies: number[] = [];
  for (let i = 0; i < calls; i += 1) {
    const t0 = performance.now();
    const res = await call();
    if (res.status !== 200) throw new Error(`unexpected status ${res.status}`);
    latencies.push(performance.now() - t0);
  }
  return latencies.sort((a, b) => a - b);
}

async function main() {
  // The gateway's per-address limit would stop a benchmark that calls from one address.
  const h = await startSharingHarness({}, { RATE_LIMIT_MAX: '1000000' });
  try {
    const { client, user } = await h.signedIn({ email: 'busy.recipient@example.co.uk' });
    const now = Date.now();
    const dips: DipProjection[] = [];
    const entries: RecipientShare[] = [];
    for (let i = 0; i < SHARES; i += 1) {
      const dipId = randomUUID();
      const sharedAt = new Date(now - i * 60_000);
      const expiresAt = new Date(now + 48 * 3600_000);
      dips.push({
        _id: dipId,
        ownerUserId: `owner-${i % 50}`,
        ownerName: `Owner ${i % 50}`,
        ownerEmail: `owner${i % 50}@example.co.uk`,
        quoteCode: `DIP-${String(i).padStart(6, '0')}`,
        shareSlug: `slug-${dipId}`,
        shareUrl: `http://localhost:8080/dip/slug-${dipId}`,
        status: 'active',
        expiresAt,
        createdAt: sharedAt,
        version: 1,
        snapshot: SNAPSHOT,
      });
      entries.push({
        _id: randomUUID(),
        dipId,
        linkId: randomUUID(),
        email: user.email,
        recipientUserId: null,
        inviteType: 'targeted',
        status: 'active',
        sharedBy: `Owner ${i % 50}`,
        sharedByEmail: `owner${i % 50}@example.co.uk`,
        ownerUserId: `owner-${i % 50}`,
        message: i % 3 === 0 ? 'Have a look at this one' : null,
        sharedAt,
        viewedAt: i % 2 === 0 ? sharedAt : null,
        quoteCode: `DIP-${String(i).padStart(6, '0')}`,
        dipExpiresAt: expiresAt,
        permissions: { view: true, downloadPdf: true },
        summary: {
          propertyAddress: SNAPSHOT.propertyAddress,
          searchData: SNAPSHOT.searchData,
          netLoan: SNAPSHOT.loan.netLoan,
          grossLoan: SNAPSHOT.loan.grossLoan,
          interestRate: SNAPSHOT.loan.interestRate,
          lenderName: SNAPSHOT.lenderName,
          loanType: SNAPSHOT.loanType,
        },
      });
    }
    await h.collections.dips.insertMany(dips);
    await h.collections.recipientShares.insertMany(entries);
    const first = await client.get('/api/shared');
    const items = first.json().items.length;
    const bytes = first.text.length;
    await timed(10, () => client.get('/api/shared'));
    const list = await timed(LIST_CALLS, () => client.get('/api/shared'));
    const count = await timed(COUNT_CALLS, () => client.get('/api/shared/unread-count'));
    console.log(
      `GET /api/shared (${items} items, ${(bytes / 1024).toFixed(0)} KB)  n=${list.length}  p50 ${percentile(list, 50).toFixed(1)} ms  p99 ${percentile(list, 99).toFixed(1)} ms`,
    );
    console.log(
      `GET /api/shared/unread-count (${SHARES} shares)  n=${count.length}  p50 ${percentile(count, 50).toFixed(2)} ms  p99 ${percentile(count, 99).toFixed(2)} ms`,
    );
  } finally {
    await h.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
