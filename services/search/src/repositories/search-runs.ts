import type { EventEnvelope, LoanType } from '@lsp/contracts';
import type { Connection } from 'mongoose';
import type { EventOutbox } from '../events';
import { type LeadDocument, leadModel } from '../models/leads';
import { type SearchRunDocument, searchRunModels } from '../models/search-runs';

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
  async record(loanType: LoanType, run: SearchRunDocument, events: EventEnvelope[], lead?: LeadDocument): Promise<void> {
    await this.connection.transaction(async (session) => {
      await this.runs[loanType].create([run], { session });
      if (lead) await this.leads.create([lead], { session });
      await this.outbox.add(events, session);
    });
  }

  async find(loanType: LoanType, id: string) {
    return this.runs[loanType].findById(id).lean();
  }

  async syncIndexes(): Promise<void> {
    await Promise.all([...Object.values(this.runs).map((model) => model.createIndexes()), this.leads.createIndexes()]);
  }
}
