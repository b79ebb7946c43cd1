import type {
  ApplicationListItem,
  DipApplicationBody,
  EventEnvelope,
  LoanApplicationBody,
  LoanType,
} from '@lsp/contracts';
import type { Decimal128 } from 'mongodb';
import type { Connection } from 'mongoose';
import type { EventOutbox } from '@lsp/service-kit';
import { fromMoneyOrNull, toMoneyOrNull } from './money';

/** The spec's dip_applications: the wizard's answers, money as Decimal128. */
export interface DipApplicationDocument {
  _id: string;
  userId: string;
  searchId: string | null;
  loanType: LoanType;
  loanData: Record<string, unknown> | null;
  fullName: string;
  email: string;
  phone: string;
  companyName: string | null;
  companyNumber: string | null;
  propertyAddress: string;
  propertyType: string | null;
  propertyValue: Decimal128 | null;
  /** As typed: the form holds text ('£350,000'); loanAmountValue is the parsed amount where it parses. */
  loanAmount: string;
  loanAmountValue: Decimal128 | null;
  loanTerm: number;
  loanPurpose: string | null;
  exitStrategy: string | null;
  annualIncome: Decimal128 | null;
  existingDebt: Decimal128 | null;
  creditScore: string | null;
  additionalInfo: string | null;
  status: string;
  submittedAt: Date;
  updatedAt: Date;
}

/** The spec's loan_applications ('Continue application'). */
export interface LoanApplicationDocument {
  _id: string;
  userId: string;
  searchId: string | null;
  companyName: string | null;
  ltdName: string | null;
  companyNumber: string | null;
  purchaseInLtd: boolean;
  propertyAddress: string;
  purchasePrice: Decimal128 | null;
  buildCosts: Decimal128 | null;
  gdv: Decimal128 | null;
  loanAmount: Decimal128 | null;
  term: number | null;
  exitStrategy: string | null;
  status: string;
  creditStatus: string | null;
  brokerFee: Decimal128 | null;
  additionalNotes: string | null;
  selectedLoan: Record<string, unknown> | null;
  searchData: Record<string, unknown> | null;
  loanType: LoanType | null;
  submittedAt: Date;
  createdAt: Date;
}

export const APPLICATION_DEFAULT_STATUS = 'submitted';
export const LOAN_APPLICATION_DEFAULT_STATUS = 'DIP Submitted';
const USER_APPLICATIONS_LIMIT = 500;

/** '£350,000' → 350000; null where the text is not an amount. */
export function amountIn(text: string): number | null {
  const cleaned = text.replace(/[£,\s]/g, '');
  return /^\d+(\.\d+)?$/.test(cleaned) && cleaned.length <= 16 ? Number(cleaned) : null;
}

export function dipApplicationDocument(
  id: string,
  userId: string,
  body: DipApplicationBody,
  now: Date,
): DipApplicationDocument {
  return {
    _id: id,
    userId,
    searchId: body.searchId ?? null,
    loanType: body.loanType,
    loanData: body.loanData ?? null,
    fullName: body.fullName,
    email: body.email,
    phone: body.phone,
    companyName: body.companyName ?? null,
    companyNumber: body.companyNumber ?? null,
    propertyAddress: body.propertyAddress,
    propertyType: body.propertyType ?? null,
    propertyValue: toMoneyOrNull(body.propertyValue),
    loanAmount: body.loanAmount,
    loanAmountValue: toMoneyOrNull(amountIn(body.loanAmount)),
    loanTerm: body.loanTerm,
    loanPurpose: body.loanPurpose ?? null,
    exitStrategy: body.exitStrategy ?? null,
    annualIncome: toMoneyOrNull(body.annualIncome),
    existingDebt: toMoneyOrNull(body.existingDebt),
    creditScore: body.creditScore ?? null,
    additionalInfo: body.additionalInfo ?? null,
    status: APPLICATION_DEFAULT_STATUS,
    submittedAt: now,
    updatedAt: now,
  };
}

export function loanApplicationDocument(
  id: string,
  userId: string,
  body: LoanApplicationBody,
  now: Date,
): LoanApplicationDocument {
  return {
    _id: id,
    userId,
    searchId: body.searchId ?? null,
    companyName: body.companyName ?? null,
    ltdName: body.ltdName ?? null,
    companyNumber: body.companyNumber ?? null,
    purchaseInLtd: body.purchaseInLtd ?? true,
    propertyAddress: body.propertyAddress,
    purchasePrice: toMoneyOrNull(body.purchasePrice),
    buildCosts: toMoneyOrNull(body.buildCosts),
    gdv: toMoneyOrNull(body.gdv),
    loanAmount: toMoneyOrNull(body.loanAmount),
    term: body.term ?? null,
    exitStrategy: body.exitStrategy ?? null,
    status: LOAN_APPLICATION_DEFAULT_STATUS,
    creditStatus: body.creditStatus ?? null,
    brokerFee: toMoneyOrNull(body.brokerFee),
    additionalNotes: body.additionalNotes ?? null,
    selectedLoan: body.selectedLoan ?? null,
    searchData: body.searchData ?? null,
    loanType: body.loanType ?? null,
    submittedAt: now,
    createdAt: now,
  };
}

export class ApplicationRepository {
  constructor(
    private readonly connection: Connection,
    private readonly outbox: EventOutbox,
  ) {}

  private dipApplications() {
    return this.connection.collection<DipApplicationDocument>('dip_applications');
  }

  private loanApplications() {
    return this.connection.collection<LoanApplicationDocument>('loan_applications');
  }

  async ensureIndexes(): Promise<void> {
    await this.dipApplications().createIndex({ userId: 1, submittedAt: -1 }, { name: 'user_newest_first' });
    await this.loanApplications().createIndex({ userId: 1, submittedAt: -1 }, { name: 'user_newest_first' });
    await this.dipApplications().createIndex({ userId: 1, searchId: 1 }, { name: 'user_search' });
    await this.loanApplications().createIndex({ userId: 1, searchId: 1 }, { name: 'user_search' });
  }

  async insertDipApplication(doc: DipApplicationDocument, events: EventEnvelope[]): Promise<void> {
    await this.connection.transaction(async (session) => {
      await this.dipApplications().insertOne(doc, { session });
      await this.outbox.add(events, session);
    });
  }

  async insertLoanApplication(doc: LoanApplicationDocument, events: EventEnvelope[]): Promise<void> {
    await this.connection.transaction(async (session) => {
      await this.loanApplications().insertOne(doc, { session });
      await this.outbox.add(events, session);
    });
  }

  /** Which of these saved searches of the user an application (of either kind) was made from. */
  async searchesWithApplications(userId: string, searchIds: string[]): Promise<string[]> {
    const filter = { userId, searchId: { $in: searchIds } };
    const [fromDipApps, fromLoanApps] = await Promise.all([
      this.dipApplications().distinct('searchId', filter),
      this.loanApplications().distinct('searchId', filter),
    ]);
    return [...new Set([...fromDipApps, ...fromLoanApps])].filter((id): id is string => id !== null);
  }

  /** Both kinds, newest first, in the dashboard's shape. */
  async listForUser(userId: string): Promise<ApplicationListItem[]> {
    const [dipApps, loanApps] = await Promise.all([
      this.dipApplications()
        .find({ userId })
        .sort({ submittedAt: -1 })
        .limit(USER_APPLICATIONS_LIMIT)
        .toArray(),
      this.loanApplications()
        .find({ userId })
        .sort({ submittedAt: -1 })
        .limit(USER_APPLICATIONS_LIMIT)
        .toArray(),
    ]);
    const items: Array<ApplicationListItem & { at: number }> = [
      ...dipApps.map((a) => ({
        id: a._id,
        kind: 'dip-application' as const,
        property_address: a.propertyAddress,
        loan_amount: fromMoneyOrNull(a.loanAmountValue),
        loan_type: a.loanType,
        status: a.status,
        created_at: a.submittedAt.toISOString(),
        at: a.submittedAt.getTime(),
      })),
      ...loanApps.map((a) => ({
        id: a._id,
        kind: 'loan-application' as const,
        property_address: a.propertyAddress,
        loan_amount: fromMoneyOrNull(a.loanAmount),
        loan_type: a.loanType,
        status: a.status,
        created_at: a.submittedAt.toISOString(),
        at: a.submittedAt.getTime(),
      })),
    ];
    return items.sort((a, b) => b.at - a.at).map(({ at: _at, ...item }) => item);
  }
}
