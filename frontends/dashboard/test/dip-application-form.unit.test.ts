import {
  GENERIC_COPY,
  LOAN_TYPE_COPY,
  applicationFormResolver,
  applicationPayload,
  copyFor,
  errorSummary,
  initialValues,
  readPendingApplication,
  reviewRows,
  selectedLoanSummary,
} from '../src/pages/dip-application-form';
import type { ApplicationForm } from '../src/pages/dip-application-form';

const pendingJson = JSON.stringify({
  formData: { loanTerm: '18', propertyAddress: '1 Quay St, Bristol', purchasePrice: '650,000' },
  selectedLoan: { LenderName: 'Castlegate Finance', GrossLoan: '450,000.4', InterestRate: 0.084 },
  loanType: 'bridging',
  searchId: 'search-42',
  timestamp: 1,
});

/** The form's check at submit, as react-hook-form runs it. */
const check = (form: ApplicationForm) =>
  applicationFormResolver(form, undefined, { fields: {}, shouldUseNativeValidation: false });

describe('DIP application wizard rules', () => {
  it('has a title, description and tip per loan type and a generic fallback', () => {
    expect(copyFor('development')).toBe(LOAN_TYPE_COPY.development);
    expect(copyFor('commercial').title).toBe('Commercial Mortgage DIP Application');
    expect(copyFor('caravan')).toBe(GENERIC_COPY);
  });

  it('reads the pending application the search remote stores, and nothing damaged', () => {
    expect(readPendingApplication(pendingJson)).toMatchObject({
      loanType: 'bridging',
      searchId: 'search-42',
    });
    expect(readPendingApplication('{oops')).toBeNull();
    expect(readPendingApplication(JSON.stringify({ selectedLoan: {}, loanType: 'boat' }))).toBeNull();
    expect(readPendingApplication(null)).toBeNull();
  });

  it('starts from the session and the chosen offer', () => {
    const pending = readPendingApplication(pendingJson);
    const values = initialValues({ name: 'Alex Morgan', email: 'alex@example.com' }, pending);
    expect(values).toMatchObject({
      fullName: 'Alex Morgan',
      email: 'alex@example.com',
      loanAmount: '450000',
      loanTerm: '18',
      propertyAddress: '1 Quay St, Bristol',
      propertyValue: '650000',
      phone: '',
    });
    // A commercial term is in years.
    expect(
      initialValues(null, {
        formData: { mortgageTerm: 25 },
        selectedLoan: {},
        loanType: 'commercial',
      }).loanTerm,
    ).toBe('300');
    expect(selectedLoanSummary(pending!.selectedLoan)).toEqual({
      lender: 'Castlegate Finance',
      grossLoan: 450000.4,
      interestRate: 0.084,
    });
  });

  it('checks at submit with the validation messages, in step order', async () => {
    const empty = { ...initialValues(null, null), loanType: 'boat' };
    const { errors } = await check(empty);
    expect(errorSummary(errors)).toEqual([
      ['loanAmount', 'Loan amount is required'],
      ['loanTerm', 'Loan term is required'],
      ['fullName', 'Full name is required'],
      ['email', 'Valid email is required'],
      ['phone', 'Valid phone number is required'],
      ['propertyAddress', 'Property address is required'],
      ['loanType', 'Loan type must be bridging, commercial or development'],
    ]);
    const mistyped = await check({
      ...empty,
      loanType: 'bridging',
      phone: '0123456789',
      email: 'not-an-email',
      loanTerm: '0',
      propertyType: 'castle',
      additionalInfo: 'x'.repeat(5001),
    });
    expect(errorSummary(mistyped.errors)).toEqual([
      ['loanAmount', 'Loan amount is required'],
      ['loanTerm', 'Loan term is required'],
      ['fullName', 'Full name is required'],
      ['email', 'Valid email is required'],
      ['propertyAddress', 'Property address is required'],
      ['propertyType', 'Choose a property type'],
      ['additionalInfo', 'Must be at most 5000 characters'],
    ]);
  });

  it('passes a complete application, sent as typed with the search and the offer', async () => {
    const pending = readPendingApplication(pendingJson);
    const form = {
      ...initialValues({ name: 'Alex Morgan', email: 'alex@example.com' }, pending),
      phone: '07700 900123',
      loanTerm: ' 18',
      loanType: 'bridging',
    };
    const { values, errors } = await check(form);
    expect(errors).toEqual({});
    expect(values).toEqual(form);
    const payload = applicationPayload(form, { userId: 'u1', pending });
    expect(payload).toMatchObject({
      userId: 'u1',
      searchId: 'search-42',
      loanType: 'bridging',
      loanTerm: ' 18',
      loanData: { LenderName: 'Castlegate Finance' },
    });
    // The answers first, then who, which search, the type and the offer, as the service has always had them.
    expect(Object.keys(payload).slice(-4)).toEqual(['userId', 'searchId', 'loanType', 'loanData']);
  });

  it('reads every answer back on the review step, a dash for one not given', () => {
    const pending = readPendingApplication(pendingJson);
    const rows = new Map(
      reviewRows({
        ...initialValues({ name: 'Alex Morgan', email: '' }, pending),
        loanType: 'bridging',
        exitStrategy: 'refinance',
        creditScore: 'very-good',
        propertyType: 'mixed',
      }),
    );
    expect(rows.get('Loan type')).toBe('Bridging');
    expect(rows.get('Loan amount')).toBe('£450,000');
    expect(rows.get('Loan term')).toBe('18 months');
    expect(rows.get('Loan purpose')).toBe('—');
    expect(rows.get('Exit strategy')).toBe('Refinance to term loan');
    expect(rows.get('Full name')).toBe('Alex Morgan');
    expect(rows.get('Email')).toBe('—');
    expect(rows.get('Property type')).toBe('Mixed use');
    expect(rows.get('Annual income')).toBe('—');
    expect(rows.get('Credit score')).toBe('Very good (661-780)');
    expect(rows.size).toBe(17);
    expect(reviewRows({ ...initialValues(null, null), loanType: '' })[0]).toEqual(['Loan type', '—']);
  });
});
