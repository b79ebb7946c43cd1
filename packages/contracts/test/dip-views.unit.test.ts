import { z } from 'zod';
import {
  DIP_VIEW_FIELDS,
  type DipViewFields,
  type DipSnapshot,
  dipSnapshotSchema,
  dipSummaryOf,
  dipSummarySchema,
  dipTermsOf,
  dipTermsSchema,
  ratePercentOf,
} from '../src/dip';
import { sharedSnapshotSummarySchema } from '../src/sharing';

/** Every field path of an object schema, its sections' fields included (`loan.netLoan`). */
function pathsOf(schema: z.ZodType, prefix = ''): string[] {
  const inner = schema instanceof z.ZodNullable || schema instanceof z.ZodOptional ? schema.unwrap() : schema;
  if (!(inner instanceof z.ZodObject)) return [prefix];
  return Object.entries(inner.shape).flatMap(([key, field]) =>
    pathsOf(field as z.ZodType, prefix ? `${prefix}.${key}` : key),
  );
}

/** Whether the view's schema has this path (a whole section, or a field in one). */
function hasPath(schema: z.ZodType, path: string): boolean {
  let at: z.ZodType = schema;
  for (const key of path.split('.')) {
    if (at instanceof z.ZodNullable || at instanceof z.ZodOptional) at = at.unwrap() as z.ZodType;
    if (!(at instanceof z.ZodObject) || !(key in at.shape)) return false;
    at = at.shape[key] as z.ZodType;
  }
  return true;
}

const covers = (prefix: string, path: string) => path === prefix || path.startsWith(`${prefix}.`);

const SNAPSHOT_PATHS = pathsOf(dipSnapshotSchema);

const SNAPSHOT: DipSnapshot = {
  loanType: 'bridging',
  lenderName: 'Harbour Bridging',
  lenderId: 'harbour',
  productId: 'harbour-12',
  productName: 'Bridge 12',
  projectName: 'Mill Lane',
  propertyAddress: '1 Mill Lane',
  borrower: { name: 'Alex Investor', email: 'alex@example.co.uk', salutation: null, entity: 'Individual' },
  property: {
    addressLine1: '1 Mill Lane',
    addressLine2: null,
    city: null,
    county: null,
    postcode: null,
    location: 'London',
    propertyType: 'Residential',
    currentValue: 400_000,
    ownerOccupied: null,
  },
  loan: {
    productType: 'Bridging Loan',
    regulated: false,
    netLoan: 250_000,
    grossLoan: 262_500,
    fees: 5_250,
    interestRate: 0.1368,
    termMonths: 12,
    ltvPercent: 65.6,
    monthlyPayment: 2_992.5,
    arrangementFeePercent: 2,
    mortgageTermYears: null,
  },
  financial: {
    depositRequired: 150_000,
    purchasePrice: 400_000,
    projectCost: 400_000,
    buildCost: 0,
    gdv: null,
  },
  promoEligibleZeroBrokerFee: false,
  searchData: { propertyLocation: 'london' },
  offer: {} as DipSnapshot['offer'],
};

/** The snapshot paths a view neither carries (as they are or renamed) nor leaves out with a reason. */
function missingIn({ schema, renamed, excluded }: DipViewFields, paths: string[]): string[] {
  return paths.filter((path) => {
    if (Object.keys(excluded).some((prefix) => covers(prefix, path))) return false;
    const carried = Object.entries(renamed).find(([from]) => covers(from, path));
    return !hasPath(schema, carried ? carried[1] + path.slice(carried[0].length) : path);
  });
}

describe('every view of a DIP against its snapshot', () => {
  it.each(Object.entries(DIP_VIEW_FIELDS))(
    'the %s view carries each snapshot field, renamed, or says why it leaves it out',
    (_view, fields) => {
      expect(missingIn(fields, SNAPSHOT_PATHS)).toEqual([]);
    },
  );

  it.each(Object.entries(DIP_VIEW_FIELDS))(
    'the %s view names only snapshot fields in its exclusions and renames, and renames to its own fields',
    (_view, { schema, renamed, excluded }) => {
      const named = [...Object.keys(renamed), ...Object.keys(excluded)];
      expect(named.filter((prefix) => !SNAPSHOT_PATHS.some((path) => covers(prefix, path)))).toEqual([]);
      expect(Object.values(renamed).filter((to) => !hasPath(schema, to))).toEqual([]);
    },
  );

  it('names a field added to the snapshot that a view neither carries nor leaves out', () => {
    const grown = dipSnapshotSchema.extend({
      loan: dipSnapshotSchema.shape.loan.extend({ brokerFee: z.number() }),
      introducer: z.string(),
    });
    expect(missingIn(DIP_VIEW_FIELDS.list, pathsOf(grown))).toEqual(['loan.brokerFee', 'introducer']);
    expect(missingIn(DIP_VIEW_FIELDS.owner, pathsOf(grown))).toEqual(['loan.brokerFee', 'introducer']);
  });

  it("takes the detail's sections from the snapshot's own schemas, so they grow with it", () => {
    const { borrower, property, financial, loan } = dipSnapshotSchema.shape;
    expect(dipTermsSchema.shape.borrower).toBe(borrower);
    expect(dipTermsSchema.shape.property).toBe(property);
    expect(dipTermsSchema.shape.financial).toBe(financial);
    const loanFields = Object.keys(loan.shape).filter((key) => key !== 'netLoan' && key !== 'interestRate');
    for (const key of loanFields)
      expect(dipTermsSchema.shape.loan.shape[key as 'fees']).toBe(loan.shape[key as 'fees']);
  });
});

describe('the views drawn from a snapshot', () => {
  it("gives the detail every section field, the loan's lender and product, the rate as a percent", () => {
    const terms = dipTermsSchema.strict().parse(dipTermsOf(SNAPSHOT));
    expect(terms.borrower).toEqual(SNAPSHOT.borrower);
    expect(terms.property).toEqual(SNAPSHOT.property);
    expect(terms.financial).toEqual(SNAPSHOT.financial);
    expect(terms.loan).toMatchObject({
      lenderName: 'Harbour Bridging',
      productName: 'Bridge 12',
      netLoanAmount: 250_000,
      ratePercent: 13.68,
      monthlyPayment: 2_992.5,
      mortgageTermYears: null,
    });
    expect(terms.loan).not.toHaveProperty('interestRate');
  });

  it('gives a list the summary, and a shared entry the same without the project name', () => {
    const summary = dipSummarySchema.strict().parse(dipSummaryOf(SNAPSHOT));
    expect(summary).toEqual({
      propertyAddress: '1 Mill Lane',
      projectName: 'Mill Lane',
      searchData: { propertyLocation: 'london' },
      lenderName: 'Harbour Bridging',
      loanType: 'bridging',
      netLoan: 250_000,
      grossLoan: 262_500,
      interestRate: 0.1368,
    });
    expect(Object.keys(sharedSnapshotSummarySchema.shape).sort()).toEqual(
      Object.keys(summary)
        .filter((key) => key !== 'projectName')
        .sort(),
    );
  });

  it('rounds a rate fraction to a percent with two places', () => {
    expect(ratePercentOf(0.1368)).toBe(13.68);
    expect(ratePercentOf(0.07255)).toBe(7.26);
    expect(ratePercentOf(0)).toBe(0);
  });
});
