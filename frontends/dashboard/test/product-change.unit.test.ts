import type { DipProductChange } from '@lsp/contracts';
import { PRODUCT_CHANGE_NOTICE, productChangeNotice } from '../src/dashboard/product-change';

describe('a DIP whose product the lender changed since it was issued', () => {
  const change = (kind: DipProductChange['change']): DipProductChange => ({
    panelVersion: 'panel-2027-01',
    change: kind,
    at: '2027-01-04T09:00:00.000Z',
  });

  it('is told so in these words, whether the product was withdrawn or repriced', () => {
    expect(PRODUCT_CHANGE_NOTICE).toBe('The lender has changed this product since your DIP was issued');
    expect(productChangeNotice(change('repriced'))).toBe(PRODUCT_CHANGE_NOTICE);
    expect(productChangeNotice(change('withdrawn'))).toBe(PRODUCT_CHANGE_NOTICE);
  });

  it('is told nothing when the product has not changed (or the view is not the owner’s: null)', () => {
    expect(productChangeNotice(null)).toBeNull();
    expect(productChangeNotice(undefined)).toBeNull();
  });
});
