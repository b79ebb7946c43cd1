import { DIP_MESSAGES } from '@lsp/contracts';
import { badRequest, declareRoute } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import type { DipRepository } from '../data/dips';
import { QUOTE_CODE_PATTERN, isDipId } from '../domain/codes';
import type { DipPdfs } from '../pdf';
import { type DipRouteDeps, readableDip } from './dips';

export const PDF_LOGIN_REQUIRED = 'Authentication Required: Please log in to download PDFs.';

export interface PdfRouteDeps extends Pick<DipRouteDeps, 'access' | 'clock' | 'askSharing'> {
  dips: DipRepository;
  pdfs: Pick<DipPdfs, 'get'>;
}

/** GET /api/online-dip/pdf/{reference}: the DIP's owner, or a recipient whose share allows downloading. */
export function registerPdfRoutes(app: FastifyInstance, deps: PdfRouteDeps) {
  declareRoute(
    app,
    'downloadDipPdf',
    async (request, reply) => {
      const { caller } = request;
      const reference = request.params.reference.trim().toUpperCase();
      let dip;
      if (isDipId(request.params.reference)) dip = await deps.dips.findById(request.params.reference);
      else if (QUOTE_CODE_PATTERN.test(reference)) dip = await deps.dips.findByQuoteCode(reference);
      else throw badRequest(`${DIP_MESSAGES.pdfNotAvailable}: ${DIP_MESSAGES.pdfInvalidReference}`);
      const readable = await readableDip(deps, dip, caller, 'downloadPdf');
      const d = readable.dip;
      const pdf = await deps.pdfs.get({
        id: d.id,
        ownerUserId: d.userId,
        version: d.version,
        quoteCode: d.quoteCode,
        snapshot: d.snapshot,
        createdAt: d.createdAt.toISOString(),
        expiresAt: d.expiresAt.toISOString(),
        validityHours: d.validityHours,
      });
      request.log.info({ dipId: d.id, version: d.version, asOwner: readable.asOwner }, 'PDF downloaded');
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="DIP-${d.quoteCode}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
    { signInMessage: PDF_LOGIN_REQUIRED },
  );
}
