import { DIP_MESSAGES } from '@lsp/contracts';
import { type CallerIdentity, badRequest } from '@lsp/service-kit';
import type { DipRepository } from '../data/dips';
import { QUOTE_CODE_PATTERN, isDipId } from '../domain/codes';
import type { Dip } from '../domain/views';
import type { DipPdfs } from '../pdf';
import { type DipReadAccessDeps, readableDip } from './access';

export interface DipPdfDeps extends DipReadAccessDeps {
  dips: Pick<DipRepository, 'findById' | 'findByQuoteCode'>;
  pdfs: Pick<DipPdfs, 'get'>;
}

export interface DipPdfDownload {
  pdf: Buffer;
  /** 'DIP-{quote code}.pdf', the name the attachment is saved under. */
  fileName: string;
  dipId: string;
  version: number;
  asOwner: boolean;
}

/**
 * The PDF of a DIP named by its id or its quote code (any case, spaces around it ignored), for its
 * owner or someone whose share allows downloading, while the DIP is valid. Each version of a DIP has
 * one PDF: the stored one, or one the PDF worker renders while the request waits.
 */
export async function downloadDipPdf(
  deps: DipPdfDeps,
  caller: CallerIdentity,
  reference: string,
): Promise<DipPdfDownload> {
  const quoteCode = reference.trim().toUpperCase();
  let found: Dip | null;
  if (isDipId(reference)) found = await deps.dips.findById(reference);
  else if (QUOTE_CODE_PATTERN.test(quoteCode)) found = await deps.dips.findByQuoteCode(quoteCode);
  else throw badRequest(`${DIP_MESSAGES.pdfNotAvailable}: ${DIP_MESSAGES.pdfInvalidReference}`);
  const { dip, asOwner } = await readableDip(deps, found, caller, 'downloadPdf');
  const pdf = await deps.pdfs.get({
    id: dip.id,
    ownerUserId: dip.userId,
    version: dip.version,
    quoteCode: dip.quoteCode,
    snapshot: dip.snapshot,
    createdAt: dip.createdAt.toISOString(),
    expiresAt: dip.expiresAt.toISOString(),
    validityHours: dip.validityHours,
  });
  return { pdf, fileName: `DIP-${dip.quoteCode}.pdf`, dipId: dip.id, version: dip.version, asOwner };
}
