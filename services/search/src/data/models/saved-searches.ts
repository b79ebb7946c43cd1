import type { LoanType, SearchRepricing } from '@lsp/contracts';
import { type Connection, type Model, Schema } from 'mongoose';

/**
 * A search a signed-in user saved (the spec's `finance_searches`): what POST /api/search stores and
 * the dashboard, /search-results/{id} and the project-name edit read. `session_id` links the save to
 * the search run that produced the results when the response carries its id.
 */
export interface SavedSearchDocument {
  _id: string;
  user_id: string;
  session_id: string | null;
  loan_type: LoanType;
  project_name: string | null;
  search_data: Record<string, unknown>;
  api_response: unknown;
  result_count: number;
  application_status: string;
  created_at: Date;
  updated_at: Date;
  /** The last lender panel change that moved its offers (absent until one does). */
  repricing?: SearchRepricing | null;
}

const savedSearchSchema = new Schema<SavedSearchDocument>(
  {
    _id: { type: String, required: true },
    user_id: { type: String, required: true },
    session_id: { type: String, default: null },
    loan_type: { type: String, required: true, enum: ['development', 'bridging', 'commercial'] },
    project_name: { type: String, default: null },
    search_data: { type: Schema.Types.Mixed, required: true },
    api_response: { type: Schema.Types.Mixed },
    result_count: { type: Number, required: true },
    application_status: { type: String, default: 'not_submitted' },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    repricing: { type: Schema.Types.Mixed, default: null },
  },
  { collection: 'finance_searches', versionKey: false, strict: true, minimize: false },
);
// GET /api/user-searches/:userId lists one user's searches newest first.
savedSearchSchema.index({ user_id: 1, created_at: -1 });
// The re-pricing window walks the searches saved in the last 90 days.
savedSearchSchema.index({ created_at: 1 });

export function savedSearchModel(connection: Connection): Model<SavedSearchDocument> {
  return (
    (connection.models.SavedSearch as Model<SavedSearchDocument> | undefined) ??
    connection.model<SavedSearchDocument>('SavedSearch', savedSearchSchema)
  );
}
