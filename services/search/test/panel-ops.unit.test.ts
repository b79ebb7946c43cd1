import { searchPanel } from '../src/engine';
import { type Panel, loadDefaultPanel } from '../src/panel';
import { diffPanels, withSameTerms } from '../src/panel/diff';
import { applyProductEdit, productView } from '../src/panel/product-edit';
import { compareOffersLists, repriceSavedSearch } from '../src/use-cases/repricing';
import { bridging } from './engine-fixtures';

const base = loadDefaultPanel();
const deal = bridging();
const savedSearch = { loan_type: 'bridging' as const, search_data: deal as Record<string, unknown> };

/** The product that makes the deal's best offer on the shipped panel. */
function bestProduct(panel: Panel) {
  const [best] = searchPanel('bridging', deal, panel).offers;
  const lender = panel.lenders.find((l) => l.id === best.LenderId)!;
  return { lender, product: lender.products.find((p) => p.id === best.ProductId)!, offer: best };
}

function edited(changes: Parameters<typeof applyProductEdit>[1]['changes'], version = 'next') {
  const { lender, product } = bestProduct(base);
  const outcome = applyProductEdit(base, { version, lenderId: lender.id, productId: product.id, changes });
  if (!outcome.ok) throw new Error(JSON.stringify(outcome));
  return outcome.panel;
}

describe('a product edit', () => {
  it('makes a new version with only that product changed, rates in the loan type’s own unit', () => {
    const { lender, product } = bestProduct(base);
    const view = productView(product);
    expect(view.ratePer).toBe('month');
    const cheaper = view.rateCard.map((band) => ({ ...band, rate: band.rate - 0.001 }));
    const next = edited({ rateCard: cheaper, fees: { exitFeePct: 0 } });
    expect(next.version).toBe('next');
    const after = next.lenders.find((l) => l.id === lender.id)!.products.find((p) => p.id === product.id)!;
    expect(productView(after).rateCard).toEqual(cheaper);
    expect(after.fees).toEqual({ ...product.fees, exitFeePct: 0 });
    expect(next.lenders.filter((l) => l.id !== lender.id)).toEqual(
      base.lenders.filter((l) => l.id !== lender.id),
    );
  });

  it('is refused with the reason when it breaks a rule spanning fields, and for an unknown product', () => {
    const { lender, product } = bestProduct(base);
    const low = [{ maxRatio: 0.1, rate: 0.01 }];
    const refused = applyProductEdit(base, {
      version: 'bad',
      lenderId: lender.id,
      productId: product.id,
      changes: { rateCard: low },
    });
    expect(refused).toMatchObject({ ok: false, notFound: false });
    expect(!refused.ok && !refused.notFound && refused.problems[0].reason).toMatch(/rate card stops below/);
    expect(
      applyProductEdit(base, {
        version: 'x',
        lenderId: lender.id,
        productId: 'nope',
        changes: { minLoan: 1 },
      }),
    ).toEqual({ ok: false, notFound: true });
  });
});

describe('the diff of two versions', () => {
  it('is empty for the same panel', () => {
    expect(diffPanels(base, { ...base, version: 'copy' })).toEqual({ products: [], lenders: [] });
  });

  it('names each changed product and field with before and after, and lenders whose regions changed', () => {
    const { lender, product } = bestProduct(base);
    const next = edited({ fees: { exitFeePct: 0.02 }, regions: ['London'] });
    const diff = diffPanels(base, next);
    expect(diff.products).toEqual([
      {
        lenderId: lender.id,
        lenderName: lender.name,
        productId: product.id,
        productName: product.name,
        change: 'changed',
        fields: [{ field: 'fees.exitFeePct', before: product.fees.exitFeePct, after: 0.02 }],
      },
    ]);
    expect(diff.lenders).toEqual([
      {
        lenderId: lender.id,
        change: 'changed',
        fields: [{ field: 'regions', before: lender.regions, after: ['London'] }],
      },
    ]);
  });

  it('lists removed and added products', () => {
    const [first, ...rest] = base.lenders;
    const diff = diffPanels(base, { ...base, lenders: rest });
    expect(diff.products.map((p) => [p.productId, p.change])).toEqual(
      first.products.map((p) => [p.id, 'removed']),
    );
    expect(diff.lenders).toEqual([{ lenderId: first.id, change: 'removed', fields: [] }]);
    expect(diffPanels({ ...base, lenders: rest }, base).products.every((p) => p.change === 'added')).toBe(
      true,
    );
  });

  it('names, for each product it changes, the earlier versions that had its new terms', () => {
    const { lender, product } = bestProduct(base);
    const key = { lenderId: lender.id, productId: product.id };
    const cheaper = edited({ fees: { exitFeePct: 0 } }, 'cheaper');
    const dearer = edited({ fees: { exitFeePct: 0.03 } }, 'dearer');
    const withdrawn = {
      ...base,
      version: 'withdrawn',
      lenders: base.lenders.filter((l) => l.id !== lender.id),
    };
    const againAsBase = { ...base, version: 'again' };

    // Back from 'dearer' to the shipped terms: they were those of the shipped panel, not of the others.
    const back = withSameTerms([{ ...key, change: 'changed' }], againAsBase, [
      base,
      cheaper,
      dearer,
      withdrawn,
    ]);
    expect(back).toEqual([{ ...key, change: 'changed', sameTermsIn: ['again', base.version] }]);
    expect(withSameTerms([{ ...key, change: 'changed' }], dearer, [base, cheaper])[0].sameTermsIn).toEqual([
      'dearer',
    ]);
    expect(withSameTerms([{ ...key, change: 'removed' }], withdrawn, [base])[0].sameTermsIn).toEqual([]);
    expect(withSameTerms([{ ...key, change: 'added' }], base, [withdrawn, cheaper])[0].sameTermsIn).toEqual([
      base.version,
    ]);
  });
});

describe('re-pricing a saved search against another panel', () => {
  it('finds a better best offer when the best product gets cheaper', () => {
    const view = productView(bestProduct(base).product);
    const next = edited({ rateCard: view.rateCard.map((band) => ({ ...band, rate: band.rate / 2 })) });
    const moved = repriceSavedSearch(savedSearch, base, next)!;
    expect(moved).toMatchObject({ betterBest: true, worseBest: false, gainOffer: false, loseOffer: false });
    expect(moved.after!.InterestRate).toBeLessThan(moved.before!.InterestRate);
  });

  it('finds a lost offer and a worse best offer when the best product is withdrawn', () => {
    const { lender, product, offer } = bestProduct(base);
    const withdrawn: Panel = {
      ...base,
      lenders: base.lenders
        .map((l) =>
          l.id === lender.id && l.products.length > 1
            ? { ...l, products: l.products.filter((p) => p.id !== product.id) }
            : l,
        )
        .filter((l) => l.id !== lender.id || l.products.length > 1),
    };
    const moved = repriceSavedSearch(savedSearch, base, withdrawn)!;
    expect(moved).toMatchObject({ loseOffer: true, worseBest: true, betterBest: false });
    expect(moved.before).toEqual(offer);
    expect(repriceSavedSearch(savedSearch, withdrawn, base)).toMatchObject({
      gainOffer: true,
      betterBest: true,
    });
  });

  it('compares lists with no offers on either side', () => {
    const { offer } = bestProduct(base);
    expect(compareOffersLists([], [offer])).toMatchObject({
      gainOffer: true,
      betterBest: true,
      worseBest: false,
    });
    expect(compareOffersLists([offer], [])).toMatchObject({
      loseOffer: true,
      worseBest: true,
      betterBest: false,
    });
    expect(compareOffersLists([], [])).toMatchObject({
      gainOffer: false,
      loseOffer: false,
      betterBest: false,
      worseBest: false,
    });
  });

  it('leaves out a saved search whose stored form no longer validates', () => {
    expect(
      repriceSavedSearch({ loan_type: 'bridging', search_data: { loanTerm: 'soon' } }, base, base),
    ).toBeNull();
  });
});
