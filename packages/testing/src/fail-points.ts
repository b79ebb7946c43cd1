import type { CommandFailedEvent, CommandStartedEvent } from 'mongodb';
import type { Connection } from 'mongoose';

/** What MongoDB's failCommand fail point does to the commands it names (its `data`, less `appName`). */
export interface FailCommandData {
  failCommands: string[];
  errorCode?: number;
  /** Replace the labels the server would give the error (MongoDB's own rules otherwise). */
  errorLabels?: string[];
  /** Drop the connection instead of answering: the driver sees a network error. */
  closeConnection?: boolean;
  /** Run the command, then answer with this write concern error. */
  writeConcernError?: { code: number; codeName: string; errmsg: string };
}

/**
 * The failures a service's writes are built to survive, as MongoDB's own drivers are tested against
 * them. Each strikes the named command once (`failNext`).
 */
export const FAULTS = {
  /** A write conflict inside a transaction: the driver aborts and runs the whole transaction again. */
  transientErrorOn: (command: string): FailCommandData => ({
    failCommands: [command],
    errorCode: 112,
    errorLabels: ['TransientTransactionError'],
  }),
  /** A commit the server failed to answer (it was shutting down): the driver sends the commit again. */
  unknownCommitResult: {
    failCommands: ['commitTransaction'],
    errorCode: 91,
    errorLabels: ['UnknownTransactionCommitResult'],
  } satisfies FailCommandData,
  /**
   * A commit that was applied but not confirmed (replication timed out): the driver commits again,
   * and the server must answer that retry without applying anything twice.
   */
  appliedCommitUnconfirmed: {
    failCommands: ['commitTransaction'],
    writeConcernError: {
      code: 64,
      codeName: 'WriteConcernFailed',
      errmsg: 'waiting for replication timed out',
    },
  } satisfies FailCommandData,
  /** The connection dropped before the answer: a retryable write is sent once more, on another. */
  networkErrorOn: (command: string): FailCommandData => ({ failCommands: [command], closeConnection: true }),
};

export interface CommandFaults {
  /**
   * Fails the next `times` (default 1) of the named commands the connection sends, as `data` says,
   * and counts the connection's commands from now on.
   */
  failNext(data: FailCommandData, times?: number): Promise<void>;
  /** The commands of this name the connection sent since `failNext` (on `collection`, when given). */
  sent(commandName: string, collection?: string): number;
  /** Of those, the ones that failed (an error reply or a dropped connection). */
  failed(commandName: string, collection?: string): number;
}

/**
 * MongoDB's failCommand fail point aimed at one connection's commands, for the tests of a describe
 * block: the connection is a `TestMongo` database's, from a server started with `testCommands` (so it
 * reports its commands and has an appName of its own: the fail point strikes no other service sharing
 * the server). `connection` is read once the harness has started (declare this after `useHarness`).
 * Commands are counted from the fault's arming; after each test the fail point is turned off, so a
 * fault a test did not use up never strikes the next one.
 *
 * `settle` writes what the service still has to write in the background (its outbox's marks of the
 * events it published, written together a moment later): it runs before each fault is armed, so the
 * fault strikes the command the test aims at, not a write left over from its set-up.
 */
export function useFailCommand(
  connection: () => Connection,
  options: { settle?: () => Promise<unknown> } = {},
): CommandFaults {
  const started: CommandStartedEvent[] = [];
  const failedIds = new Set<number>();
  let watched: Connection | undefined;

  const watch = (): Connection => {
    const current = connection();
    if (watched !== current) {
      const client = current.getClient();
      if (!client.options.monitorCommands)
        throw new Error('useFailCommand needs a connection of a TestMongo started with testCommands');
      client.on('commandStarted', (e: CommandStartedEvent) => started.push(e));
      client.on('commandFailed', (e: CommandFailedEvent) => failedIds.add(e.requestId));
      watched = current;
    }
    return current;
  };

  const configure = (mode: unknown, data?: FailCommandData) => {
    const target = watch();
    return target
      .getClient()
      .db('admin')
      .command({
        configureFailPoint: 'failCommand',
        mode,
        ...(data ? { data: { ...data, appName: target.getClient().options.appName } } : {}),
      });
  };

  const matching = (commandName: string, collection?: string) =>
    started.filter(
      (e) =>
        e.commandName === commandName && (collection === undefined || e.command[commandName] === collection),
    );

  beforeAll(() => {
    watch();
  });
  const forget = () => {
    started.length = 0;
    failedIds.clear();
  };
  beforeEach(forget);
  afterEach(async () => {
    await configure('off');
  });

  return {
    async failNext(data, times = 1) {
      await options.settle?.();
      await configure({ times }, data);
      // What the test did before the fault (its own set-up) is not what the fault struck.
      forget();
    },
    sent: (commandName, collection) => matching(commandName, collection).length,
    failed: (commandName, collection) =>
      matching(commandName, collection).filter((e) => failedIds.has(e.requestId)).length,
  };
}
