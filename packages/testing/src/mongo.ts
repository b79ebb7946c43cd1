import { randomBytes } from 'node:crypto';
import type { EmbeddedMongo } from '@lsp/embedded-mongo';
import mongoose, { type Connection } from 'mongoose';

export interface TestMongo {
  /** A connection string for the server (replica set `rs0`, so transactions work). */
  url: string;
  /** A connection to a database of its own (`<name>_<random>`), dropped again by `stop()`. */
  database(name: string): Promise<Connection>;
  /** Drops the databases handed out, closes their connections and stops the server if it started one. */
  stop(): Promise<void>;
}

/**
 * MongoDB for one test file: the server at MONGO_URL when set (a real replica set in CI or
 * compose), otherwise the embedded server on a free port. Each caller gets its own databases, so
 * test files and parallel runs never see each other's documents.
 */
export async function startTestMongo(): Promise<TestMongo> {
  let server: EmbeddedMongo | null = null;
  let url = process.env.MONGO_URL;
  if (!url) {
    // Loaded only when needed: with MONGO_URL set the embedded server is never touched.
    const { startEmbeddedMongo } = await import('@lsp/embedded-mongo');
    server = await startEmbeddedMongo({ port: 0, replSet: 'rs0' });
    url = server.uri;
  }
  const mongoUrl = url;
  const connections: Connection[] = [];
  return {
    url: mongoUrl,
    async database(name: string) {
      const dbName = `${name}_${randomBytes(4).toString('hex')}`;
      const connection = mongoose.createConnection(mongoUrl, { dbName, serverSelectionTimeoutMS: 5000 });
      await connection.asPromise();
      connections.push(connection);
      return connection;
    },
    async stop() {
      for (const connection of connections) {
        await connection.dropDatabase().catch(() => undefined);
        await connection.close().catch(() => undefined);
      }
      if (server) await server.stop();
    },
  };
}
