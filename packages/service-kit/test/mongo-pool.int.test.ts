// connectMongo rests the driver's pool checks: one a second instead of ten, on every pool the client
// opens. This reads the driver's own pool, so a driver upgrade that moves it fails here rather than
// silently bringing back ten wake-ups a second.
import { type EmbeddedMongo, startEmbeddedMongo } from '@lsp/embedded-mongo';
import type { Connection } from 'mongoose';
import { POOL_CHECK_INTERVAL_MS, connectMongo, createLogger } from '../src';

let server: EmbeddedMongo;
let connection: Connection;

beforeAll(async () => {
  server = await startEmbeddedMongo({ port: 0, replSet: 'rs0' });
  connection = await connectMongo(server.uri, 'pools', createLogger('pool-test', 'silent'));
});

afterAll(async () => {
  await connection?.close();
  await server?.stop();
});

function poolCheckIntervals(): number[] {
  const servers = (
    connection.getClient() as unknown as {
      topology: {
        s: { servers: Map<string, { pool: { options: { minPoolSizeCheckFrequencyMS: number } } }> };
      };
    }
  ).topology.s.servers;
  return [...servers.values()].map((s) => s.pool.options.minPoolSizeCheckFrequencyMS);
}

it('checks each pool once a second, and the connection still works', async () => {
  expect(POOL_CHECK_INTERVAL_MS).toBe(1000);
  const intervals = poolCheckIntervals();
  expect(intervals.length).toBeGreaterThan(0);
  expect(intervals.every((ms) => ms === POOL_CHECK_INTERVAL_MS)).toBe(true);
  await connection.collection('things').insertOne({ name: 'first' });
  expect(await connection.collection('things').countDocuments()).toBe(1);
});
