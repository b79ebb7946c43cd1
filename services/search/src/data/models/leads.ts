import type { ContactPreference, LoanType, PropertiesOwned } from '@lsp/contracts';
import { type Connection, type Model, Schema } from 'mongoose';

/** A captured lead (the spec's `leads`), with the Lendability Score worked out when it arrived. */
export interface LeadDocument {
  _id: string;
  name: string;
  email: string;
  phone: string | null;
  propertiesOwned: PropertiesOwned;
  contactPreference: ContactPreference;
  consent: boolean;
  searchType: LoanType;
  searchPayload: Record<string, unknown>;
  lendabilityScore: { score: number; band: string; factors: unknown[]; tips: string[] };
  /** Set when the lead came with a search run (development sends the lead with the search). */
  searchRunId: string | null;
  userId: string | null;
  createdAt: Date;
}

const leadSchema = new Schema<LeadDocument>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    email: { type: String, required: true },
    phone: { type: String, default: null },
    propertiesOwned: { type: String, required: true },
    contactPreference: { type: String, required: true },
    consent: { type: Boolean, required: true },
    searchType: { type: String, required: true },
    searchPayload: { type: Schema.Types.Mixed, required: true },
    lendabilityScore: { type: Schema.Types.Mixed, required: true },
    searchRunId: { type: String, default: null },
    userId: { type: String, default: null },
    createdAt: { type: Date, required: true },
  },
  { collection: 'leads', versionKey: false, strict: true, minimize: false },
);
// Follow-up work looks a lead up by email, newest first.
leadSchema.index({ email: 1, createdAt: -1 });

export function leadModel(connection: Connection): Model<LeadDocument> {
  return (
    (connection.models.Lead as Model<LeadDocument> | undefined) ??
    connection.model<LeadDocument>('Lead', leadSchema)
  );
}
