import type { LoanType } from '@lsp/contracts';
import { type Connection, type Model, Schema } from 'mongoose';

/**
 * One record per search run, in the collection of its loan type (the spec's `development_searches`,
 * `bridging_searches` and `commercial_searches`). A run is stored whether or not anyone is signed in:
 * it is the audit of what the panel offered for a deal, and `userId` is set only for a signed-in caller.
 * `_id` is the search run id that search.completed carries as its subject.
 */
export interface SearchRunBase {
  _id: string;
  userId: string | null;
  /** The HTTP request id (the external request ref), to find the run from a log line. */
  requestRef: string;
  panelVersion: string;
  projectName: string;
  applicationStatus: string;
  apiResponse: unknown;
  resultCount: number;
  declinedCount: number;
  bestRate: number | null;
  durationMs: number;
  createdAt: Date;
}

export type SearchRunDocument = SearchRunBase & Record<string, unknown>;

const readinessFields = {
  hasViewedProperty: { type: Boolean, default: false },
  ownsProperty: { type: Boolean, default: false },
  agreedPurchasePrice: { type: Boolean, default: false },
};

const commonFields = {
  _id: { type: String, required: true },
  userId: { type: String, default: null },
  requestRef: { type: String, required: true },
  panelVersion: { type: String, required: true },
  projectName: { type: String, required: true },
  applicationStatus: { type: String, default: 'not_submitted' },
  apiResponse: { type: Schema.Types.Mixed },
  resultCount: { type: Number, required: true },
  declinedCount: { type: Number, required: true },
  bestRate: { type: Number, default: null },
  durationMs: { type: Number, required: true },
  netLoanRequired: Number,
  maxLoanRequired: { type: Boolean, default: false },
  propertyLocation: String,
  createdAt: { type: Date, required: true },
  ...readinessFields,
};

const developmentFields = {
  purchasePrice: Number,
  /** The land's cost to the borrower: purchase price plus purchase costs. */
  landCosts: Number,
  buildCost: Number,
  purchaseCosts: Number,
  propertyClass: String,
  propertyAddress: String,
  additionalOngoingCosts: Number,
  gdv: Number,
  buildTerm: Number,
  loanTerm: Number,
  purchaseOrRefinance: String,
  giaKnown: Boolean,
  contingencyIncluded: Boolean,
  contingencyPercentage: { type: Number, default: 5 },
  totalBuildCost: Number,
  profCostsAndFees: Number,
};

const bridgingFields = {
  bridgingType: String,
  propertyClass: String,
  currentValue: Number,
  purchasePrice: Number,
  purchaseCosts: Number,
  estimatedEndValueOfProperty: Number,
  estimatedSpending: Number,
  landTotalOtherCosts: Number,
  landOrProperty: String,
  ownOrPurchase: String,
  originalPurchaseDate: String,
  planningPermissionType: String,
  refinancedUnits: Number,
  refurbishmentLevel: String,
  buildCosts: Number,
  loanTerm: Number,
};

const commercialFields = {
  currentPropertyType: String,
  isOwnerOccupied: Boolean,
  grossMonthlyRentalIncome: Number,
  mortgageTerm: Number,
  currentValue: Number,
  purchasePrice: Number,
  purchaseCosts: Number,
  ownOrPurchase: String,
  originalPurchaseDate: String,
  borrowingEntityType: String,
  timeLeftOnLease: String,
  loanCompletionType: String,
  fixedRateTerm: String,
  mortgageInterestType: String,
  loanRepaymentType: String,
};

const FIELDS: Record<LoanType, Record<string, unknown>> = {
  development: developmentFields,
  bridging: bridgingFields,
  commercial: commercialFields,
};

export const SEARCH_RUN_COLLECTIONS: Record<LoanType, string> = {
  development: 'development_searches',
  bridging: 'bridging_searches',
  commercial: 'commercial_searches',
};

function searchRunSchema(loanType: LoanType) {
  const schema = new Schema<SearchRunDocument>(
    { ...commonFields, ...FIELDS[loanType] },
    { collection: SEARCH_RUN_COLLECTIONS[loanType], versionKey: false, strict: true },
  );
  // A user's runs newest first (account history); anonymous runs are left out of the index.
  schema.index({ userId: 1, createdAt: -1 }, { partialFilterExpression: { userId: { $type: 'string' } } });
  schema.index({ createdAt: -1 });
  return schema;
}

export type SearchRunModels = Record<LoanType, Model<SearchRunDocument>>;

export function searchRunModels(connection: Connection): SearchRunModels {
  const model = (loanType: LoanType) =>
    (connection.models[`SearchRun_${loanType}`] as Model<SearchRunDocument> | undefined) ??
    connection.model<SearchRunDocument>(`SearchRun_${loanType}`, searchRunSchema(loanType));
  return { development: model('development'), bridging: model('bridging'), commercial: model('commercial') };
}
