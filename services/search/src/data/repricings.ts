import type { EventEnvelope, SearchRepricing } from '@lsp/contracts';
import type { EventOutbox } from '@lsp/service-kit';
import { type Connection, type Model, Schema } from 'mongoose';
import { savedSearchModel } from './models/saved-searches';

/** One re-pricing of the saved searches after a panel activation, walked in id order. */
export interface RepricingRunDocument {
  /** `<version>@<activatedAt>`: a later activation of the same version is a run of its own. */
  _id: string;
  panelVersion: string;
  previousVersion: string;
  status: 'running' | 'done';
  /** Saved searches with an id above this are still to do. */
  cursor: string | null;
  done: number;
  changed: number;
  startedAt: Date;
  finishedAt: Date | null;
}

/** What one saved search's offers did after one activation; `_id` is `<searchId>@<runId>`. */
export interface RepricingRecordDocument extends SearchRepricing {
  _id: string;
  searchId: string;
  userId: string;
  runId: string;
}

const runSchema = new Schema<RepricingRunDocument>(
  {
    _id: { type: String, required: true },
    panelVersion: { type: String, required: true },
    previousVersion: { type: String, required: true },
    status: { type: String, enum: ['running', 'done'], required: true },
    cursor: { type: String, default: null },
    done: { type: Number, required: true },
    changed: { type: Number, required: true },
    startedAt: { type: Date, required: true },
    finishedAt: { type: Date, default: null },
  },
  { collection: 'repricing_runs', versionKey: false, strict: true },
);

const recordSchema = new Schema<RepricingRecordDocument>(
  {
    _id: { type: String, required: true },
    searchId: { type: String, required: true, index: true },
    userId: { type: String, required: true },
    runId: { type: String, required: true },
  },
  { collection: 'search_repricings', versionKey: false, strict: false },
);

function modelOf<T>(connection: Connection, name: string, schema: Schema<T>): Model<T> {
  return (connection.models[name] as Model<T> | undefined) ?? connection.model<T>(name, schema);
}

export interface RepricedSearch {
  searchId: string;
  userId: string;
  repricing: SearchRepricing;
  event: EventEnvelope;
}

/**
 * The re-pricing's progress and its results. Each batch commits in one transaction: the records, each
 * search's latest repricing, their search.repriced events and the run's cursor, so a worker killed
 * mid-batch resumes after the last committed batch, and nothing is recorded or published twice.
 */
export class RepricingRepository {
  private readonly runs;
  private readonly records;
  private readonly searches;

  constructor(
    private readonly connection: Connection,
    private readonly outbox: EventOutbox,
  ) {
    this.runs = modelOf(connection, 'RepricingRun', runSchema);
    this.records = modelOf(connection, 'RepricingRecord', recordSchema);
    this.searches = savedSearchModel(connection);
  }

  /** The run, started now if it never was (a redelivered job finds the one it began). */
  async openRun(runId: string, panelVersion: string, previousVersion: string): Promise<RepricingRunDocument> {
    await this.runs.updateOne(
      { _id: runId },
      {
        $setOnInsert: {
          panelVersion,
          previousVersion,
          status: 'running',
          cursor: null,
          done: 0,
          changed: 0,
          startedAt: new Date(),
          finishedAt: null,
        },
      },
      { upsert: true },
    );
    return (await this.runs.findById(runId).lean())!;
  }

  async findRun(runId: string): Promise<RepricingRunDocument | null> {
    return this.runs.findById(runId).lean();
  }

  /** Commits one batch: what changed, and the cursor past every search of the batch. */
  async commitBatch(
    runId: string,
    batchSize: number,
    cursor: string,
    changed: RepricedSearch[],
  ): Promise<void> {
    await this.connection.transaction(async (session) => {
      // The cursor moves in this transaction too: a batch is committed whole or not at all.
      const run = await this.runs.findById(runId, { cursor: 1 }).session(session).lean();
      if (run?.cursor && run.cursor >= cursor) return;
      if (changed.length) {
        await this.records.insertMany(
          changed.map(({ searchId, userId, repricing }) => ({
            _id: `${searchId}@${runId}`,
            searchId,
            userId,
            runId,
            ...repricing,
          })),
          { session },
        );
        await this.searches.bulkWrite(
          changed.map(({ searchId, repricing }) => ({
            updateOne: { filter: { _id: searchId }, update: { $set: { repricing } } },
          })),
          { session },
        );
        await this.outbox.add(
          changed.map((c) => c.event),
          session,
        );
      }
      await this.runs.updateOne(
        { _id: runId },
        { $set: { cursor }, $inc: { done: batchSize, changed: changed.length } },
        { session },
      );
    });
  }

  async finishRun(runId: string): Promise<void> {
    await this.runs.updateOne({ _id: runId }, { $set: { status: 'done', finishedAt: new Date() } });
  }

  async recordsOf(searchId: string): Promise<RepricingRecordDocument[]> {
    return this.records.find({ searchId }).sort({ repricedAt: 1 }).lean();
  }
}
