// What a DIP's owner is told once a lender panel change has withdrawn or repriced the product the DIP
// was issued from. The DIP keeps its terms (a decision in principle as issued); the service sends the
// change in the owner's views only, so someone the DIP was shared with never sees it.
import type { DipProductChange } from '@lsp/contracts';

export const PRODUCT_CHANGE_NOTICE = 'The lender has changed this product since your DIP was issued';

/** The notice a DIP view shows, or null when the DIP's product has not changed since it was issued. */
export function productChangeNotice(productChange: DipProductChange | null | undefined): string | null {
  return productChange ? PRODUCT_CHANGE_NOTICE : null;
}
