// Test harness: the suite runs against MONGO_URL when set (a real MongoDB, to compare behaviour),
// otherwise against an embedded server on a free port.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Db, type Document, MongoClient, MongoServerError } from 'mongodb';
import { startEmbeddedMongo, type EmbeddedMongo, type EmbeddedMongoOptions } from '../src';

export interface TestDatabase {
  uri: string;
  client: MongoClient;
  db: Db;
  embedded?: EmbeddedMongo;
  close(): Promise<void>;
}

export const usingRealMongo = Boolean(process.env.MONGO_URL);

export async function openTestDatabase(
  options: EmbeddedMongoOptions = { replSet: 'rs0' },
): Promise<TestDatabase> {
  const embedded = usingRealMongo ? undefined : await startEmbeddedMongo({ port: 0, ...options });
  const uri = process.env.MONGO_URL ?? embedded!.uri;
  const client = await MongoClient.connect(uri);
  const dbName = `emtest_${randomUUID().slice(0, 8)}`;
  const db = client.db(dbName);
  return {
    uri,
    client,
    db,
    embedded,
    async close() {
      await db.dropDatabase().catch(() => undefined);
      await client.close();
      await embedded?.stop();
    },
  };
}

/**
 * Opens a test database before the file's tests and closes it after them. The handle is filled in
 * by the first beforeAll, so read its fields only inside hooks and tests declared after this call.
 */
export function useTestDatabase(options?: EmbeddedMongoOptions): TestDatabase {
  const t = {} as TestDatabase;
  beforeAll(async () => {
    Object.assign(t, await openTestDatabase(options));
  });
  afterAll(async () => {
    await t.close();
  });
  return t;
}

/**
 * Makes temporary folders named `<prefix>XXXXXX` for the file's tests (data folders of servers of
 * their own) and removes them all after the file's tests.
 */
export function temporaryFolders(prefix: string): () => string {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}

/** The server error a promise rejects with (fails the test when it resolves or rejects otherwise). */
export async function failure(p: Promise<unknown>): Promise<MongoServerError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MongoServerError);
  return err as MongoServerError;
}

/** A small seeded generator (mulberry32), so a failure names the seed that shows it again. */
export function seededRandom(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** `explain` of a find, as the driver would send it. */
export function explainFind(db: Db, coll: string, filter: Document, sort?: Document, limit?: number) {
  return db.command({
    explain: { find: coll, filter, ...(sort ? { sort } : {}), ...(limit ? { limit } : {}) },
  });
}

/** Every stage of a plan (through inputStage and an OR's inputStages), outermost first. */
export function planStages(plan: Document): Document[] {
  const out: Document[] = [plan];
  if (plan.inputStage) out.push(...planStages(plan.inputStage as Document));
  for (const input of (plan.inputStages as Document[] | undefined) ?? []) out.push(...planStages(input));
  return out;
}

/** The stage names of a plan, outermost first. */
export const stageNames = (plan: Document) => planStages(plan).map((s) => s.stage as string);
