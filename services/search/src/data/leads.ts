import type { EventOutbox } from '@lsp/service-kit';
import type { EventEnvelope } from '@lsp/contracts';
import type { Connection } from 'mongoose';
import { type LeadDocument, leadModel } from './models/leads';

export class LeadRepository {
  private readonly leads;

  constructor(
    private readonly connection: Connection,
    private readonly outbox: EventOutbox,
  ) {
    this.leads = leadModel(connection);
  }

  async insert(lead: LeadDocument, events: EventEnvelope[]): Promise<void> {
    await this.connection.transaction(async (session) => {
      await this.leads.create([lead], { session });
      await this.outbox.add(events, session);
    });
  }

  async find(id: string) {
    return this.leads.findById(id).lean();
  }

  async count(): Promise<number> {
    return this.leads.countDocuments();
  }
}
