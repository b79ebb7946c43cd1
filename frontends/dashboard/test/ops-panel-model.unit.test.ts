import type { PanelProductEditForm, PanelProductView } from '@lsp/contracts';
import {
  IMPACT_POLL_MS,
  describeChange,
  editProblems,
  fieldLabel,
  fieldValue,
  fractionPercent,
  impactPollInterval,
  impactProgress,
  problemText,
  problemsOf,
  productEditDefaults,
  productEditForm,
  productEditResolver,
  productEditSchema,
} from '../src/operations/panel-model';

const bridging: PanelProductView = {
  id: 'quay-bridge',
  name: 'Quay Bridge',
  loanType: 'bridging',
  ratePer: 'month',
  rateCard: [
    { maxRatio: 0.6, rate: 0.0075 },
    { maxRatio: 0.75, rate: 0.0085 },
  ],
  maxRatioBands: [{ upToLoan: 5_000_000, maxRatio: 0.75 }],
  fees: { arrangementFeePct: 0.02, minArrangementFee: 2500, exitFeePct: 0.01, otherCosts: 1500 },
  minLoan: 100_000,
  maxLoan: 5_000_000,
  minTermMonths: 3,
  maxTermMonths: 18,
  refusedPropertyClasses: ['Hotel'],
};
const regions: PanelProductEditForm['terms']['regions'] = ['London', 'SouthEast'];

describe('a changed term as the diff shows it', () => {
  it('names the term by its path', () => {
    expect(fieldLabel('rateCard[0].ratePerMonth')).toBe('Rate card band 1: rate per month');
    expect(fieldLabel('fees.exitFeePct')).toBe('Fees: exit fee');
    expect(fieldLabel('maxLtgdvBands[1].upToLoan')).toBe('Max LTGDV band 2: loans up to');
    expect(fieldLabel('maxLtgdvByClass.CareRetirement')).toBe('Max LTGDV for Care / retirement home');
    expect(fieldLabel('regions')).toBe('Regions');
    expect(fieldLabel('somethingNew')).toBe('somethingNew');
  });

  it('formats each side by what the term is', () => {
    expect(fieldValue('rateCard[0].ratePerMonth', 0.0085)).toBe('0.85% pm');
    expect(fieldValue('rateCard[2].ratePerYear', 0.0725)).toBe('7.25% pa');
    expect(fieldValue('rateCard[0].maxRatio', 0.65)).toBe('65%');
    expect(fieldValue('fees.arrangementFeePct', 0.0125)).toBe('1.25%');
    expect(fieldValue('minLoan', 250_000)).toBe('£250,000');
    expect(fieldValue('maxLtvBands[0].upToLoan', 1_000_000)).toBe('£1,000,000');
    expect(fieldValue('maxTermMonths', 18)).toBe('18 months');
    expect(fieldValue('minInterestMonths', 1)).toBe('1 month');
    expect(fieldValue('regions', ['London', 'NorthWest'])).toBe('London, North West');
    expect(fieldValue('refusedPropertyClasses', [])).toBe('none');
    expect(fieldValue('developerExitMaxLtv', null)).toBe('none');
    expect(fieldValue('acceptsInvestment', true)).toBe('Yes');
    expect(fieldValue('maxLtgdvByClass.Hotel', 0.5)).toBe('50%');
    expect(fieldValue('rentalCover.interestOnly', 1.25)).toBe('1.25×');
  });

  it('reads before and after without float noise', () => {
    expect(fractionPercent(0.1 + 0.2)).toBe('30%');
    expect(fractionPercent(0.00425)).toBe('0.425%');
    expect(describeChange({ field: 'rateCard[1].ratePerMonth', before: 0.0085, after: 0.00425 })).toEqual({
      label: 'Rate card band 2: rate per month',
      before: '0.85% pm',
      after: '0.425% pm',
    });
  });
});

describe('the impact measurement', () => {
  it('reports its progress as done of total and a percentage', () => {
    expect(impactProgress({ status: 'running', done: 3, total: 8 })).toEqual({
      done: 3,
      total: 8,
      percent: 37,
      text: '3 of 8 saved searches re-priced',
    });
    expect(impactProgress({ status: 'done', done: 1, total: 1 }).text).toBe('1 of 1 saved search re-priced');
    expect(impactProgress({ status: 'running', done: 0, total: 0 }).percent).toBe(0);
    expect(impactProgress({ status: 'done', done: 0, total: 0 }).percent).toBe(100);
    expect(impactProgress({ status: 'running', done: 12, total: 10 }).done).toBe(10);
    expect(impactProgress({ status: 'done', done: 1500, total: 2000 }).text).toBe(
      '1,500 of 2,000 saved searches re-priced',
    );
  });

  it('is polled while it runs, and no longer once it is done or failed', () => {
    expect(impactPollInterval({ status: 'running' })).toBe(IMPACT_POLL_MS);
    expect(impactPollInterval({ status: 'done' })).toBe(false);
    expect(impactPollInterval({ status: 'failed' })).toBe(false);
    expect(impactPollInterval(null)).toBe(false);
  });
});

describe('the product edit form', () => {
  it('shows ratios and fees as percentages', () => {
    const form = productEditForm(bridging, regions);
    expect(form.rateCard).toEqual([
      { maxRatioPct: 60, ratePct: 0.75 },
      { maxRatioPct: 75, ratePct: 0.85 },
    ]);
    expect(form.maxRatioBands).toEqual([{ upToLoan: 5_000_000, maxRatioPct: 75 }]);
    expect(form).toMatchObject({ arrangementFeePct: 2, exitFeePct: 1, minArrangementFee: 2500 });
    expect(form.regions).toEqual(regions);
  });

  it('sends only the terms changed, as the fractions the panel stores', () => {
    const form = productEditDefaults(bridging, regions);
    form.version = ' 2026-12-01-rates ';
    form.terms.rateCard[1].ratePct = 0.8;
    form.terms.exitFeePct = 1.5;
    form.terms.maxTermMonths = 24;
    form.terms.regions = ['SouthEast', 'London', 'Wales'];
    expect(productEditSchema(bridging, regions).parse(form)).toEqual({
      version: '2026-12-01-rates',
      description: undefined,
      changes: {
        rateCard: [
          { maxRatio: 0.6, rate: 0.0075 },
          { maxRatio: 0.75, rate: 0.008 },
        ],
        fees: { exitFeePct: 0.015 },
        maxTermMonths: 24,
        regions: ['SouthEast', 'London', 'Wales'],
      },
    });
    form.description = '  Exit fee up  ';
    expect(productEditSchema(bridging, regions).parse(form).description).toBe('Exit fee up');
  });

  /** The form's check at submit, as react-hook-form runs it, and what the page then shows. */
  async function check(form: PanelProductEditForm) {
    const { errors } = await productEditResolver(bridging, regions)(form, undefined, {
      fields: {},
      shouldUseNativeValidation: false,
    });
    return { problems: editProblems(bridging, errors), version: errors.version?.message };
  }

  it('takes the same choices in another order as no change, and refuses a form that changes nothing', async () => {
    const form = productEditDefaults(bridging, regions);
    form.version = 'v2';
    form.terms.regions = ['SouthEast', 'London'];
    expect(await check(form)).toEqual({ problems: ['Change at least one term'], version: undefined });
  });

  it('names every field left empty in the order of the form, and the missing name beside its field', async () => {
    const form = productEditDefaults(bridging, regions);
    form.terms.regions = [];
    form.terms.minLoan = null;
    form.terms.exitFeePct = null;
    form.terms.maxRatioBands[0].upToLoan = null;
    form.terms.rateCard[1].maxRatioPct = null;
    form.terms.rateCard[0].ratePct = null;
    expect(await check(form)).toEqual({
      problems: [
        'Rate band 1: rate is required',
        'Rate band 2: up to ratio is required',
        'Size band 1: loans up to is required',
        'Exit fee is required',
        'Minimum loan is required',
        'Choose at least one region',
      ],
      version: 'Give the new version a name',
    });
  });

  it('says both that the name is missing and that nothing changed', async () => {
    const form = productEditDefaults(bridging, regions);
    form.version = '   ';
    expect(await check(form)).toEqual({
      problems: ['Change at least one term'],
      version: 'Give the new version a name',
    });
    form.version = 'v2';
    form.terms.minTermMonths = 6;
    expect(await check(form)).toEqual({ problems: [], version: undefined });
  });
});

describe("a refusal's problems", () => {
  it('reads each with its line, or alone for the whole panel', () => {
    expect(problemText({ line: 4, reason: 'not valid JSON' })).toBe('Line 4: not valid JSON');
    expect(problemText({ line: null, reason: 'the rate card stops below the highest cap' })).toBe(
      'the rate card stops below the highest cap',
    );
  });

  it('are read from a body that has them, and none from one that does not', () => {
    expect(problemsOf({ error: 'x', problems: [{ line: 2, reason: 'bad' }, { nope: 1 }] })).toEqual([
      { line: 2, reason: 'bad' },
    ]);
    expect(problemsOf({ error: 'x' })).toEqual([]);
    expect(problemsOf(null)).toEqual([]);
  });
});
