import {
  GENERIC_COPY,
  LOAN_TYPE_COPY,
  applicationPayload,
  copyFor,
  initialValues,
  readPendingApplication,
  selectedLoanSummary,
  validateApplication,
} from '../src/pages/dip-application-form';

const pendingJson = JSON.stringify({
  formData: { loanTerm: '18', propertyAddress: '1 Quay St, Bristol', purchasePrice: '650,000' },
  selectedLoan: { LenderName: 'Castlegate Finance', GrossLoan: '450,000.4', InterestRate: 0.084 },
  loanType: 'bridging',
  searchId: 'search-42',
  timestamp: 1,
});

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

  it('checks at submit with the validation messages, in step order', () => {
    const empty = initialValues(null, null);
    const errors = validateApplication(
      applicationPayload(empty, { userId: 'u1', loanType: 'boat', pending: null }),
    );
    expect(errors).toEqual({
      loanAmount: 'Loan amount is required',
      loanTerm: 'Loan term is required',
      fullName: 'Full name is required',
      email: 'Valid email is required',
      phone: 'Valid phone number is required',
      propertyAddress: 'Property address is required',
      loanType: 'Loan type must be bridging, commercial or development',
    });
    expect(Object.keys(errors)[0]).toBe('loanAmount');
    expect(
      validateApplication(
        applicationPayload(
          { ...empty, phone: '0123456789', email: 'not-an-email', loanTerm: '0' },
          { userId: 'u1', loanType: 'bridging', pending: null },
        ),
      ),
    ).toMatchObject({ email: 'Valid email is required', loanTerm: 'Loan term is required' });
  });

  it('passes a complete application and sends the search and the offer with it', () => {
    const pending = readPendingApplication(pendingJson);
    const values = {
      ...initialValues({ name: 'Alex Morgan', email: 'alex@example.com' }, pending),
      phone: '07700 900123',
    };
    const payload = applicationPayload(values, { userId: 'u1', loanType: 'bridging', pending });
    expect(validateApplication(payload)).toEqual({});
    expect(payload).toMatchObject({
      userId: 'u1',
      searchId: 'search-42',
      loanType: 'bridging',
      loanData: { LenderName: 'Castlegate Finance' },
    });
  });
});
