import { declareRoute } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import { type DipPdfDeps, downloadDipPdf } from '../use-cases/pdf';

export const PDF_LOGIN_REQUIRED = 'Authentication Required: Please log in to download PDFs.';

/** GET /api/online-dip/pdf/{reference}: the DIP's owner, or a recipient whose share allows downloading. */
export function registerPdfRoutes(app: FastifyInstance, deps: DipPdfDeps) {
  declareRoute(
    app,
    'downloadDipPdf',
    async (request, reply) => {
      const download = await downloadDipPdf(deps, request.caller, request.params.reference);
      const { dipId, version, asOwner } = download;
      request.log.info({ dipId, version, asOwner }, 'PDF downloaded');
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${download.fileName}"`)
        .header('cache-control', 'private, no-store')
        .send(download.pdf);
    },
    { signInMessage: PDF_LOGIN_REQUIRED },
  );
}
