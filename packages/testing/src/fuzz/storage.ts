// What a fuzz run reads of a service's database: a fingerprint that must not change when every input
// is refused, and the keys no stored document may hold.
import { createHash } from 'node:crypto';
import type { Connection } from 'mongoose';
import { isPlainObject } from './bodies';

/**
 * A fingerprint of a service's database: per collection, the number of documents and a hash of all of
 * them (in `_id` order). Collections in `idsOnly` (an outbox a relay marks as published) are compared
 * by their ids alone; those in `ignore` (a relay's lease, renewed all the time) not at all.
 */
export async function databaseFingerprint(
  connection: Connection,
  opts: { idsOnly?: string[]; ignore?: string[] } = {},
): Promise<Record<string, string>> {
  const db = connection.db;
  if (!db) throw new Error('the connection is not open');
  const names = (await db.listCollections({}, { nameOnly: true }).toArray())
    .map((c) => c.name)
    .filter((name) => !name.startsWith('system.') && !opts.ignore?.includes(name))
    .sort();
  const fingerprint: Record<string, string> = {};
  for (const name of names) {
    const docs = await db.collection(name).find({}).sort({ _id: 1 }).toArray();
    const compared = opts.idsOnly?.includes(name) ? docs.map((doc) => doc._id) : docs;
    const hash = createHash('sha256').update(JSON.stringify(compared)).digest('hex').slice(0, 16);
    fingerprint[name] = `${docs.length} documents, ${hash}`;
  }
  return fingerprint;
}

/** Waits until the fingerprint holds still (relays and consumers done), and answers it. */
export async function settledFingerprint(
  read: () => Promise<Record<string, string>>,
  timeoutMs = 10_000,
  intervalMs = 300,
): Promise<Record<string, string>> {
  const deadline = Date.now() + timeoutMs;
  let last = JSON.stringify(await read());
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    const now = await read();
    if (JSON.stringify(now) === last) return now;
    if (Date.now() > deadline) {
      const before = JSON.parse(last) as Record<string, string>;
      const moving = Object.keys(now).filter((name) => now[name] !== before[name]);
      throw new Error(`the database did not settle: ${moving.join(', ')} kept changing`);
    }
    last = JSON.stringify(now);
  }
}

/** Keys of stored documents that must never be stored: `$…`, dotted, NUL, `__proto__`, `constructor`. */
export async function unsafeStoredKeys(connection: Connection): Promise<string[]> {
  const db = connection.db;
  if (!db) throw new Error('the connection is not open');
  const found: string[] = [];
  const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
  for (const name of names) {
    for (const doc of await db.collection(name).find({}).toArray()) {
      const stack: Array<{ value: unknown; path: string }> = [
        { value: doc, path: `${name}/${String(doc._id)}` },
      ];
      while (stack.length) {
        const { value, path } = stack.pop() as { value: unknown; path: string };
        if (Array.isArray(value))
          value.forEach((item, i) => stack.push({ value: item, path: `${path}[${i}]` }));
        else if (isPlainObject(value) && Object.getPrototypeOf(value) === Object.prototype) {
          for (const key of Object.keys(value)) {
            if (
              key.startsWith('$') ||
              key.includes('.') ||
              key.includes('\u0000') ||
              key === '__proto__' ||
              key === 'constructor'
            )
              found.push(`${path}.${key}`);
            stack.push({ value: value[key], path: `${path}.${key}` });
          }
        }
      }
    }
  }
  return found;
}
