import {
  COMMERCIAL_NET_LOAN_REQUIRED_MESSAGE,
  NET_LOAN_REQUIRED_MESSAGE,
  bridgingSearchSchema,
  commercialSearchSchema,
  developmentSearchSchema,
} from '../src/search';

type Schema = {
  safeParse: (input: unknown) => {
    success: boolean;
    error?: { issues: { path: PropertyKey[]; message: string }[] };
  };
};

/** The messages a payload gets, as "path: message". */
function messages(schema: Schema, input: unknown): string[] {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

const dev = {
  projectName: 'Mill Lane',
  purchasePrice: 1_000_000,
  buildCost: 800_000,
  gdv: 2_500_000,
  propertyLocation: 'London',
  propertyClass: 'Residential',
  buildTerm: 12,
  loanTerm: 18,
  netLoanRequired: 1_200_000,
};

describe('development payload', () => {
  it('applies the spec defaults', () => {
    const parsed = developmentSearchSchema.parse(dev);
    expect(parsed).toMatchObject({
      maxLoanRequired: false,
      purchaseOrRefinance: 'Purchase',
      additionalOngoingCosts: 0,
      giaKnown: false,
      contingencyIncluded: false,
      contingencyPercentage: 5,
      hasViewedProperty: false,
      ownsProperty: false,
      agreedPurchasePrice: false,
    });
  });

  it.each([
    ['projectName', '', 'projectName: Project name is required'],
    ['projectName', '   ', 'projectName: Project name is required'],
    ['purchasePrice', 0, 'purchasePrice: Purchase price is required'],
    ['purchasePrice', undefined, 'purchasePrice: Purchase price is required'],
    ['buildCost', 0, 'buildCost: Build cost is required'],
    ['gdv', undefined, 'gdv: GDV is required'],
    ['buildTerm', 0, 'buildTerm: Build term is required'],
    ['loanTerm', '', 'loanTerm: Loan term is required'],
  ])('rejects %s = %p with the spec message', (field, value, expected) => {
    expect(messages(developmentSearchSchema, { ...dev, [field]: value })).toEqual([expected]);
  });

  it('requires a net loan when max loan is not selected, reported on netLoanRequired', () => {
    expect(messages(developmentSearchSchema, { ...dev, netLoanRequired: undefined })).toEqual([
      `netLoanRequired: ${NET_LOAN_REQUIRED_MESSAGE}`,
    ]);
  });

  it('shows the net-loan message together with field errors', () => {
    expect(messages(developmentSearchSchema, { ...dev, projectName: '', netLoanRequired: '' })).toEqual([
      'projectName: Project name is required',
      `netLoanRequired: ${NET_LOAN_REQUIRED_MESSAGE}`,
    ]);
  });

  it('clears the net loan when max loan is selected', () => {
    expect(developmentSearchSchema.parse({ ...dev, maxLoanRequired: true }).netLoanRequired).toBeUndefined();
  });

  it('keeps contingency between 0 and 100 and falls back to 5 when empty or zero', () => {
    expect(developmentSearchSchema.parse({ ...dev, contingencyPercentage: 0 }).contingencyPercentage).toBe(5);
    expect(developmentSearchSchema.parse({ ...dev, contingencyPercentage: '' }).contingencyPercentage).toBe(
      5,
    );
    expect(
      developmentSearchSchema.parse({ ...dev, contingencyPercentage: '7.5' }).contingencyPercentage,
    ).toBe(7.5);
    expect(messages(developmentSearchSchema, { ...dev, contingencyPercentage: 101 })).toEqual([
      'contingencyPercentage: Contingency percentage must be between 0 and 100',
    ]);
  });

  it('accepts numbers sent as text with separators and a £ sign', () => {
    const parsed = developmentSearchSchema.parse({
      ...dev,
      purchasePrice: '£1,000,000',
      buildTerm: '12',
      netLoanRequired: '1,200,000',
    });
    expect(parsed.purchasePrice).toBe(1_000_000);
    expect(parsed.buildTerm).toBe(12);
    expect(parsed.netLoanRequired).toBe(1_200_000);
  });

  it('rejects garbage, wrong types, fractional terms and huge numbers with clear messages', () => {
    expect(messages(developmentSearchSchema, { ...dev, buildCost: 'lots' })).toEqual([
      'buildCost: Build cost must be a number',
    ]);
    expect(messages(developmentSearchSchema, { ...dev, gdv: { amount: 1 } })).toEqual([
      'gdv: GDV must be a number',
    ]);
    expect(messages(developmentSearchSchema, { ...dev, loanTerm: 12.5 })).toEqual([
      'loanTerm: Loan term must be a whole number of months',
    ]);
    expect(messages(developmentSearchSchema, { ...dev, gdv: 1e15 })).toEqual([
      'gdv: GDV must be at most £1,000,000,000',
    ]);
    expect(messages(developmentSearchSchema, { ...dev, gdv: '1e400' })).toEqual([
      'gdv: GDV must be a number',
    ]);
    expect(messages(developmentSearchSchema, { ...dev, purchaseCosts: -1 })).toEqual([
      'purchaseCosts: Purchase costs cannot be negative',
    ]);
    expect(messages(developmentSearchSchema, { ...dev, maxLoanRequired: 'yes' })).toEqual([
      'maxLoanRequired: Max loan required must be true or false',
    ]);
  });

  it('rejects unknown enum values naming the allowed ones, including PureResidential', () => {
    expect(messages(developmentSearchSchema, { ...dev, propertyClass: 'PureResidential' })[0]).toMatch(
      /^propertyClass: Property class must be one of Residential, MixedUse, .* \(received "PureResidential"\)$/,
    );
    expect(messages(developmentSearchSchema, { ...dev, propertyLocation: undefined })).toEqual([
      'propertyLocation: Property location is required',
    ]);
  });
});

describe('bridging payload', () => {
  const minimal = { projectName: 'Chain break', loanTerm: 12, maxLoanRequired: true };

  it('applies the spec defaults for the enumerations and flags', () => {
    expect(bridgingSearchSchema.parse(minimal)).toMatchObject({
      bridgingType: 'bridgingPurchaseOrRefinance',
      propertyLocation: 'London',
      propertyClass: 'Residential',
      landOrProperty: 'Property',
      ownOrPurchase: 'Own',
      planningPermissionType: 'NoPlanning',
      refurbishmentLevel: 'Light',
      refinancedUnits: 1,
      hasViewedProperty: false,
    });
  });

  it('requires the project name, a loan term of at least 1 and the net loan rule', () => {
    expect(messages(bridgingSearchSchema, { loanTerm: 0 })).toEqual([
      'projectName: Project name is required',
      'loanTerm: Loan term is required',
      `netLoanRequired: ${NET_LOAN_REQUIRED_MESSAGE}`,
    ]);
  });

  it('rejects an unknown bridging type', () => {
    expect(messages(bridgingSearchSchema, { ...minimal, bridgingType: 'bridgingAuction' })[0]).toMatch(
      /^bridgingType: Bridging type must be one of /,
    );
  });
});

describe('commercial payload', () => {
  const valid = {
    projectName: 'High Street offices',
    mortgageTerm: 25,
    grossMonthlyRentalIncome: 2000,
    currentValue: 250_000,
    fixedRateTerm: 'FiveYear',
    netLoanRequired: 150_000,
  };

  it('applies the spec defaults', () => {
    expect(commercialSearchSchema.parse(valid)).toMatchObject({
      propertyLocation: 'London',
      currentPropertyType: 'Office',
      isOwnerOccupied: false,
      ownOrPurchase: 'Own',
      borrowingEntityType: 'Individual',
      timeLeftOnLease: 'MoreThanThreeYears',
      mortgageInterestType: 'Fixed',
      loanRepaymentType: 'InterestOnly',
      loanCompletionType: 'AsSoonAsPossible',
      maxLoanRequired: false,
    });
  });

  it('requires the project name and a mortgage term of at least 1', () => {
    expect(messages(commercialSearchSchema, { ...valid, projectName: '', mortgageTerm: 0 })).toEqual([
      'projectName: Project name is required',
      'mortgageTerm: Mortgage term is required',
    ]);
  });

  // Each: the field left out, the one message that gets, and what makes the field not required.
  it.each([
    [
      'requires a net loan when maximum loan is not requested (the decided intent) and not when it is',
      { netLoanRequired: undefined },
      `netLoanRequired: ${COMMERCIAL_NET_LOAN_REQUIRED_MESSAGE}`,
      { maxLoanRequired: true },
    ],
    [
      'requires rent for an investment property but not for an owner-occupier',
      { grossMonthlyRentalIncome: undefined },
      'grossMonthlyRentalIncome: Gross monthly rental income is required for investment properties',
      { isOwnerOccupied: true },
    ],
    [
      'requires a fixed rate term for a fixed mortgage only',
      { fixedRateTerm: undefined },
      'fixedRateTerm: Fixed rate term is required for fixed interest mortgages',
      { mortgageInterestType: 'Variable' },
    ],
  ])('%s', (_rule, leftOut, message, notRequired) => {
    expect(messages(commercialSearchSchema, { ...valid, ...leftOut })).toEqual([message]);
    expect(messages(commercialSearchSchema, { ...valid, ...leftOut, ...notRequired })).toEqual([]);
  });

  it('requires the current value when owned, and price and costs when purchasing', () => {
    expect(messages(commercialSearchSchema, { ...valid, currentValue: undefined })).toEqual([
      'currentValue: Current value is required when you own the property',
    ]);
    expect(
      messages(commercialSearchSchema, { ...valid, ownOrPurchase: 'Purchasing', purchasePrice: 300_000 }),
    ).toEqual(['purchaseCosts: Purchase price and costs are required when purchasing']);
    expect(
      messages(commercialSearchSchema, {
        ...valid,
        ownOrPurchase: 'Purchasing',
        purchasePrice: 300_000,
        purchaseCosts: 0,
      }),
    ).toEqual([]);
  });

  it('rejects an unknown repayment type and a mortgage term beyond 50 years', () => {
    expect(messages(commercialSearchSchema, { ...valid, loanRepaymentType: 'Balloon' })[0]).toBe(
      'loanRepaymentType: Loan repayment type must be one of InterestOnly, Repayment, Capital&Interest (received "Balloon")',
    );
    expect(messages(commercialSearchSchema, { ...valid, mortgageTerm: 99 })).toEqual([
      'mortgageTerm: Mortgage term must be at most 50 years',
    ]);
  });
});
