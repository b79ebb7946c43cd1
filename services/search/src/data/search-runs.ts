import type { EventOutbox } from '@lsp/service-kit';
import type { EventEnvelope, LoanType } from '@lsp/contracts';
import type { Connection } from 'mongoose';
import { type LeadDocument, leadModel } from './models/leads';
import { SEARCH_RUN_COLLECTIONS, type SearchRunDocument, searchRunModels } from './models/search-runs';

export class SearchRunRepository {
  private readonly runs;
  private readonly leads;

  constructor(
    private readonly connection: Connection,
    private readonly outbox: EventOutbox,
  ) {
    this.runs = searchRunModels(connection);
    this.leads = leadModel(connection);
  }

  /** The run, the lead that came with it (if any) and their events commit together or not at all. */
  async record(
    loanType: LoanType,
    run: SearchRunDocument,
    events: EventEnvelope[],
    lead?: LeadDocument,
  ): Promise<void> {
    await this.connection.transaction(async (session) => {
      // Built from validated input in code, so the driver's insert is enough: a search pays for
      // mongoose's casting and validation on every run otherwise.
      await this.connection
        .collection<SearchRunDocument>(SEARCH_RUN_COLLECTIONS[loanType])
        .insertOne(run, { session });
      if (lead) await this.connection.collection<LeadDocument>('leads').insertOne(lead, { session });
      await this.outbox.add(events, session);
    });
  }

  async find(loanType: LoanType, id: string) {
    return this.runs[loanType].findById(id).lean();
  }

  async syncIndexes(): Promise<void> {
    await Promise.all([
      ...Object.values(this.runs).map((model) => model.createIndexes()),
      this.leads.createIndexes(),
    ]);
  }
}
