import type { EventOutbox } from '@lsp/service-kit';
import type { EventEnvelope } from '@lsp/contracts';
import type { ClientSession, Connection } from 'mongoose';
import { type SavedSearchDocument, savedSearchModel } from './models/saved-searches';

/** Most searches a dashboard lists at once; far above any real user's count. */
export const USER_SEARCHES_LIMIT = 500;

const windowOf = (since: Date, until?: Date) => (until ? { $gte: since, $lt: until } : { $gte: since });

export class SavedSearchRepository {
  private readonly searches;

  constructor(
    private readonly connection: Connection,
    private readonly outbox: EventOutbox,
  ) {
    this.searches = savedSearchModel(connection);
  }

  /** Stores the search with its events; inside `session` when given (an event handled once), else its own transaction. */
  async insert(search: SavedSearchDocument, events: EventEnvelope[], session?: ClientSession): Promise<void> {
    const write = async (within: ClientSession) => {
      await this.searches.create([search], { session: within });
      await this.outbox.add(events, within);
    };
    if (session) await write(session);
    else await this.connection.transaction(write);
  }

  async listForUser(userId: string): Promise<SavedSearchDocument[]> {
    return this.searches.find({ user_id: userId }).sort({ created_at: -1 }).limit(USER_SEARCHES_LIMIT).lean();
  }

  /** The user's saved search of this run, if they saved it already. */
  async findByRun(
    userId: string,
    runId: string,
    session?: ClientSession,
  ): Promise<SavedSearchDocument | null> {
    return this.searches.findOne({ user_id: userId, session_id: runId }, null, { session }).lean();
  }

  async find(id: string): Promise<SavedSearchDocument | null> {
    return this.searches.findById(id).lean();
  }

  /** Renames only if the search still belongs to the user; returns the updated search or null. */
  async rename(
    id: string,
    userId: string,
    projectName: string,
    now: Date,
  ): Promise<SavedSearchDocument | null> {
    return this.searches
      .findOneAndUpdate(
        { _id: id, user_id: userId },
        { $set: { project_name: projectName, 'search_data.projectName': projectName, updated_at: now } },
        { returnDocument: 'after' },
      )
      .lean();
  }

  /** The dashboard's 'Application Submitted' badge; only on the applicant's own search. */
  async markApplicationSubmitted(id: string, userId: string, session?: ClientSession): Promise<void> {
    await this.searches.updateOne(
      { _id: id, user_id: userId },
      { $set: { application_status: 'submitted', updated_at: new Date() } },
      { session },
    );
  }

  /** How many searches were saved in a window (the re-pricing window: since a time, before another). */
  async countSavedSince(since: Date, until?: Date): Promise<number> {
    return this.searches.countDocuments({ created_at: windowOf(since, until) });
  }

  /**
   * One batch of the searches saved since a time, in id order after `afterId`: a walk over them can
   * stop anywhere and resume from the last id it finished.
   */
  /**
   * The searches saved in [since, until) with an id above `afterId`, in id order, through one cursor
   * that hands them over `batchSize` at a time. One query for the whole walk: a query per batch costs
   * a scan and a sort of the window each time on a server whose indexes answer no ranges (the embedded
   * MongoDB), which stalled live searches while a re-pricing ran.
   */
  savedSince(
    window: { since: Date; until?: Date; afterId: string | null },
    batchSize: number,
  ): AsyncIterable<
    Pick<SavedSearchDocument, '_id' | 'user_id' | 'loan_type' | 'project_name' | 'search_data'>
  > {
    const { since, until, afterId } = window;
    return this.searches
      .find(
        { created_at: windowOf(since, until), ...(afterId ? { _id: { $gt: afterId } } : {}) },
        { _id: 1, user_id: 1, loan_type: 1, project_name: 1, search_data: 1 },
      )
      .sort({ _id: 1 })
      .lean()
      .cursor({ batchSize });
  }

  async syncIndexes(): Promise<void> {
    await this.searches.createIndexes();
  }
}
