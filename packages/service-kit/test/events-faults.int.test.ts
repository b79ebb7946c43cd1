// Faults MongoDB's own drivers are tested against, injected with the failCommand fail point into the
// transactions the platform's delivery guarantees rest on: a service's state change with its outbox
// entry, and a consumer's effect with its processed-event marker. Nothing may be lost, written twice
// or published twice. The embedded server runs with test commands enabled here (npm start never is).
import { createEnvelope } from '@lsp/contracts';
import { type EmbeddedMongo, startEmbeddedMongo } from '@lsp/embedded-mongo';
import mongoose, { type Connection } from 'mongoose';
import { Outbox, OutboxRelay, ProcessedEvents } from '../src/events';

let server: EmbeddedMongo;
let connection: Connection;
let admin: Connection;

beforeAll(async () => {
  server = await startEmbeddedMongo({ port: 0, replSet: 'rs0', enableTestCommands: true });
  connection = await mongoose
    .createConnection(server.uri, { dbName: 'faults', monitorCommands: true })
    .asPromise();
  connection.getClient().on('commandStarted', (e) => sent.push(e.commandName));
  admin = await mongoose.createConnection(server.uri, { dbName: 'admin' }).asPromise();
});

afterAll(async () => {
  await connection?.close();
  await admin?.close();
  await server?.stop();
});

afterEach(async () => {
  await failCommand('off', {});
  sent.length = 0;
});

function failCommand(mode: unknown, data: Record<string, unknown>) {
  return admin.db!.command({ configureFailPoint: 'failCommand', mode, data });
}

/** The commands the services' connection sent, to see that each fault really struck. */
const sent: string[] = [];
const sentCount = (name: string) => sent.filter((c) => c === name).length;

let n = 0;
const unique = (name: string) => `${name}_${++n}`;

function recordingBus() {
  const published: string[] = [];
  return { published, publish: async (e: { id: string }) => void published.push(e.id) };
}

/** A service's change and its event in one transaction, as every repository writes them. */
async function saveWithEvent(outbox: Outbox, collection: string, id: string) {
  const event = createEnvelope('dip', { type: 'dip.created', subject: id, data: { dipId: id } });
  let attempts = 0;
  await connection.transaction(async (session) => {
    attempts += 1;
    await connection.collection(collection).insertOne({ _id: id as never }, { session });
    await outbox.add([event], session);
  });
  return { event, attempts };
}

/** A service's outbox, published at commit to a recording bus, and the collection its changes go to. */
async function publishingService() {
  const outbox = await Outbox.open(connection, { collectionName: unique('outbox') });
  const bus = recordingBus();
  outbox.publishAtCommit({ bus });
  return { outbox, bus, dips: unique('dips') };
}

/**
 * Saves one change with its event while `fault` strikes once, and expects one change, one outbox
 * entry, and that entry's event published exactly once. Answers how many times the transaction ran.
 */
async function saveThroughFault(fault: Record<string, unknown>, id: string): Promise<number> {
  const { outbox, bus, dips } = await publishingService();
  await failCommand({ times: 1 }, fault);
  const { event, attempts } = await saveWithEvent(outbox, dips, id);
  await outbox.drain();
  expect(await connection.collection(dips).countDocuments()).toBe(1);
  expect(await outbox.collection().countDocuments()).toBe(1);
  expect(bus.published).toEqual([event.id]);
  return attempts;
}

describe('a service’s change and its outbox entry', () => {
  it('TransientTransactionError on the outbox write: the transaction runs again, one change, one entry, one publish', async () => {
    const fault = { failCommands: ['insert'], errorCode: 112, errorLabels: ['TransientTransactionError'] };
    expect(await saveThroughFault(fault, 'dip-1')).toBe(2);
  });

  it('UnknownTransactionCommitResult on commit: the commit is retried, applied once and published once', async () => {
    const fault = {
      failCommands: ['commitTransaction'],
      errorCode: 91,
      errorLabels: ['UnknownTransactionCommitResult'],
    };
    expect(await saveThroughFault(fault, 'dip-2')).toBe(1);
    expect(sentCount('commitTransaction')).toBe(2);
  });

  it('a connection dropped in the middle of the transaction: it runs again on a new one, nothing twice', async () => {
    const fault = { failCommands: ['insert'], closeConnection: true };
    expect(await saveThroughFault(fault, 'dip-3')).toBe(2);
  });

  it('a failure that is not transient: neither the change nor the entry, and nothing published', async () => {
    const { outbox, bus, dips } = await publishingService();
    await failCommand({ times: 1 }, { failCommands: ['commitTransaction'], errorCode: 8000 });
    await expect(saveWithEvent(outbox, dips, 'dip-4')).rejects.toMatchObject({ code: 8000 });
    await outbox.drain();
    expect(await connection.collection(dips).countDocuments()).toBe(0);
    expect(await outbox.collection().countDocuments()).toBe(0);
    expect(bus.published).toEqual([]);
  });
});

describe('publishing at commit: read back only when the commit is not known', () => {
  it('an acknowledged commit: its event is published as written, without reading the entry back', async () => {
    const { outbox, bus, dips } = await publishingService();
    const { event } = await saveWithEvent(outbox, dips, 'dip-5');
    await outbox.drain();
    expect(bus.published).toEqual([event.id]);
    expect(sentCount('find')).toBe(0);
    expect(await outbox.countPending()).toBe(0);
  });

  it('a commit given up on that had applied (MaxTimeMSExpired on its write concern): read back and published once', async () => {
    const { outbox, bus, dips } = await publishingService();
    await failCommand(
      { times: 1 },
      {
        failCommands: ['commitTransaction'],
        writeConcernError: {
          code: 50,
          codeName: 'MaxTimeMSExpired',
          errmsg: 'operation exceeded time limit',
        },
      },
    );
    await expect(saveWithEvent(outbox, dips, 'dip-6')).rejects.toMatchObject({
      writeConcernError: { code: 50 },
    });
    await outbox.drain();
    expect(await connection.collection(dips).countDocuments()).toBe(1);
    expect(sentCount('find')).toBe(1);
    expect(bus.published).toHaveLength(1);
    expect(await outbox.countPending()).toBe(0);
  });

  it('a commit given up on that had not applied (MaxTimeMSExpired): read back, nothing published', async () => {
    const { outbox, bus, dips } = await publishingService();
    await failCommand(
      { times: 1 },
      { failCommands: ['commitTransaction'], errorCode: 50, errorLabels: ['UnknownTransactionCommitResult'] },
    );
    await expect(saveWithEvent(outbox, dips, 'dip-7')).rejects.toMatchObject({ code: 50 });
    await outbox.drain();
    expect(sentCount('find')).toBe(1);
    expect(await connection.collection(dips).countDocuments()).toBe(0);
    expect(bus.published).toEqual([]);
  });
});

describe('marking entries published at commit', () => {
  it('writes the marks of several commits together, in one command, by the time the outbox is drained', async () => {
    const { outbox, bus, dips } = await publishingService();
    for (const id of ['dip-m1', 'dip-m2', 'dip-m3', 'dip-m4']) await saveWithEvent(outbox, dips, id);
    await outbox.drain();
    expect(bus.published).toHaveLength(4);
    expect(sentCount('update')).toBe(1);
    expect(await outbox.countPending()).toBe(0);
    const marked = await outbox.collection().find({}).toArray();
    expect(marked.every((entry) => entry.publishedAt instanceof Date && entry.attempts === 1)).toBe(true);
  });

  it('a mark MongoDB refuses: the entry stays pending, and the relay publishes it again', async () => {
    const { outbox, bus, dips } = await publishingService();
    await failCommand({ times: 1 }, { failCommands: ['update'], errorCode: 8000 });
    const { event } = await saveWithEvent(outbox, dips, 'dip-m5');
    await outbox.drain();
    expect(bus.published).toEqual([event.id]);
    expect(await outbox.countPending()).toBe(1);
    const relayBus = recordingBus();
    const relay = new OutboxRelay({ outbox, bus: relayBus, commitGraceMs: 0 });
    expect(await relay.publishPending()).toBe(1);
    await relay.stop();
    expect(relayBus.published).toEqual([event.id]);
    expect(await outbox.countPending()).toBe(0);
  });
});

describe('a consumer’s effect and its processed-event marker', () => {
  const delivered = (id: string) => ({ id, type: 'dip.created' });

  async function consume(processed: ProcessedEvents, effects: string, eventId: string) {
    return processed.handleOnce('test-consumer', delivered(eventId), async (session) => {
      await connection
        .collection(effects)
        .updateOne({ _id: 'count' as never }, { $inc: { n: 1 } }, { upsert: true, session });
    });
  }

  it('TransientTransactionError on the marker: the effect once, and a redelivery changes nothing', async () => {
    const processed = await ProcessedEvents.open(connection, { collectionName: unique('processed') });
    const effects = unique('effects');
    await failCommand(
      { times: 1 },
      { failCommands: ['insert'], errorCode: 112, errorLabels: ['TransientTransactionError'] },
    );
    expect(await consume(processed, effects, 'event-1')).toBe(true);
    expect(sentCount('abortTransaction')).toBeGreaterThanOrEqual(1);
    expect(await consume(processed, effects, 'event-1')).toBe(false);
    expect(await connection.collection(effects).findOne({ _id: 'count' as never })).toMatchObject({ n: 1 });
  });

  it('UnknownTransactionCommitResult and a dropped connection on commit: the effect once', async () => {
    const processed = await ProcessedEvents.open(connection, { collectionName: unique('processed') });
    const effects = unique('effects');
    await failCommand(
      { times: 1 },
      { failCommands: ['commitTransaction'], errorCode: 91, errorLabels: ['UnknownTransactionCommitResult'] },
    );
    expect(await consume(processed, effects, 'event-2')).toBe(true);
    await failCommand({ times: 1 }, { failCommands: ['commitTransaction'], closeConnection: true });
    expect(await consume(processed, effects, 'event-3')).toBe(true);
    expect(sentCount('commitTransaction')).toBe(4);
    expect(await consume(processed, effects, 'event-2')).toBe(false);
    expect(await consume(processed, effects, 'event-3')).toBe(false);
    expect(await connection.collection(effects).findOne({ _id: 'count' as never })).toMatchObject({ n: 2 });
  });
});
