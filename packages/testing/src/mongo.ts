import { randomBytes } from 'node:crypto';
import * as os from 'node:os';
import type { EmbeddedMongo } from '@lsp/embedded-mongo';
import mongoose, { type Connection } from 'mongoose';

export interface TestMongo {
  /** A connection string for the server (replica set `rs0`, so transactions work). */
  url: string;
  /**
   * A connection to a database of its own (`<name>_<random>`), dropped again by `stop()`. The
   * connection's appName is the database's name, so a fail point can strike its commands alone.
   */
  database(name: string): Promise<Connection>;
  /** Drops the databases handed out, closes their connections and stops the server if it started one. */
  stop(): Promise<void>;
}

export interface TestMongoOptions {
  /**
   * For fault tests: a server that answers `configureFailPoint` (mongod's enableTestCommands), and
   * connections that report the commands they send (driver command monitoring), so a test can see
   * that its fault struck. The server at MONGO_URL is used only if it was started with test commands;
   * otherwise (testcontainers' MongoDB is not) the embedded server is started with them.
   */
  testCommands?: boolean;
}

/**
 * MongoDB for one test file: the server at MONGO_URL when set (a real replica set in CI or
 * compose), otherwise the embedded server on a free port. Each caller gets its own databases, so
 * test files and parallel runs never see each other's documents.
 */
export async function startTestMongo(opts: TestMongoOptions = {}): Promise<TestMongo> {
  let server: EmbeddedMongo | null = null;
  let url = process.env.MONGO_URL;
  if (url && opts.testCommands && !(await answersFailPoints(url))) url = undefined;
  if (!url) {
    // Loaded only when needed: with MONGO_URL set the embedded server is never touched.
    const { startEmbeddedMongo } = await import('@lsp/embedded-mongo');
    server = await startEmbeddedMongo({ port: 0, replSet: 'rs0', enableTestCommands: opts.testCommands });
    url = server.uri;
  }
  const mongoUrl = url;
  const connections: Connection[] = [];
  return {
    url: mongoUrl,
    async database(name: string) {
      const dbName = `${name}_${randomBytes(4).toString('hex')}`;
      const connection = mongoose.createConnection(mongoUrl, {
        dbName,
        appName: dbName,
        // The driver loads `os` with a dynamic import(), which jest's sandbox refuses; without it the
        // handshake goes without its client metadata, appName included, and no fail point can aim at it.
        runtimeAdapters: { os },
        serverSelectionTimeoutMS: 5000,
        ...(opts.testCommands ? { monitorCommands: true } : {}),
      });
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

/**
 * Whether the server at `url` has test commands enabled: turning failCommand off is then accepted;
 * without them the command does not exist (59 CommandNotFound). Any other failure is thrown.
 */
async function answersFailPoints(url: string): Promise<boolean> {
  const connection = mongoose.createConnection(url, { serverSelectionTimeoutMS: 5000 });
  try {
    await connection.asPromise();
    await connection.getClient().db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' });
    return true;
  } catch (err) {
    if ((err as { code?: unknown }).code === 59) return false;
    throw err;
  } finally {
    await connection.close().catch(() => undefined);
  }
}
