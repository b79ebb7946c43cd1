import { LOAN_TYPES, type LoanType } from '@lsp/contracts';

export { LOAN_TYPES, type LoanType };

export function isLoanType(value: unknown): value is LoanType {
  return typeof value === 'string' && (LOAN_TYPES as readonly string[]).includes(value);
}

export const LOAN_TYPE_INFO: Record<
  LoanType,
  { title: string; description: string; historyLabel: string; optionsLabel: string }
> = {
  development: {
    title: 'Development Finance',
    description: 'Fund construction projects and property developments',
    historyLabel: 'Development Finance',
    optionsLabel: 'development finance options',
  },
  bridging: {
    title: 'Bridging Finance',
    description: 'Short-term financing for property transactions',
    historyLabel: 'Bridging Finance',
    optionsLabel: 'bridging loan options',
  },
  commercial: {
    title: 'Commercial Loans',
    description: 'Long-term finance for commercial properties',
    historyLabel: 'Commercial Finance',
    optionsLabel: 'commercial finance options',
  },
};
