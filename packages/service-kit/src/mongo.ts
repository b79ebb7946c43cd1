import mongoose, { type Connection } from 'mongoose';
import type { Logger } from 'pino';

/**
 * Each service owns one database on the shared server (identity, search, dip, sharing,
 * notifications); the connection string may name a replica set, which transactions need.
 */
export async function connectMongo(url: string, dbName: string, logger: Logger): Promise<Connection> {
  const connection = mongoose.createConnection(url, {
    dbName,
    serverSelectionTimeoutMS: 5000,
    maxPoolSize: 20,
    autoIndex: true,
  });
  connection.on('disconnected', () => logger.warn({ dbName }, 'MongoDB disconnected'));
  connection.on('reconnected', () => logger.info({ dbName }, 'MongoDB reconnected'));
  await connection.asPromise();
  return connection;
}

export function mongoHealthCheck(connection: Connection) {
  return {
    name: 'mongodb',
    check: async () => {
      if (!connection.db) throw new Error('not connected');
      await connection.db.admin().ping();
    },
  };
}
