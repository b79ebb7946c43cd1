// The owner's DIP views (the DIPs tab, the DIP dialog, the online DIP page) show this info alert when
// the lender has changed the DIP's product since it was issued (see product-change.ts).
import type { DipProductChange } from '@lsp/contracts';
import { Alert } from '@lsp/ui';
import { productChangeNotice } from './product-change';

export function ProductChangeNotice({
  productChange,
  className,
}: {
  productChange: DipProductChange | null | undefined;
  className?: string;
}) {
  const notice = productChangeNotice(productChange);
  if (!notice) return null;
  return (
    <Alert variant="info" className={className}>
      {notice}
    </Alert>
  );
}
