import {
  DIP_INTERNAL_PATHS,
  type DipState,
  searchesWithApplicationsBodySchema,
  searchesWithApplicationsResponseSchema,
} from '@lsp/contracts';
import { badRequest, registerInternalRead } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import type { ApplicationRepository } from '../data/applications';
import type { DipRepository } from '../data/dips';
import { isDipId } from '../domain/codes';
import { type Dip, shareUrlOf } from '../domain/views';

export interface InternalReadDeps {
  dips: Pick<DipRepository, 'findById'>;
  applications: Pick<ApplicationRepository, 'searchesWithApplications'>;
  publicUrl: string;
  internalSecret: string;
}

/** The DIP's link state as sharing keeps it (the owner's name and address are the snapshot's borrower). */
export function dipStateOf(dip: Dip, publicUrl: string): DipState {
  return {
    dipId: dip.id,
    ownerUserId: dip.userId,
    version: dip.version,
    ownerName: dip.snapshot.borrower.name,
    ownerEmail: dip.snapshot.borrower.email,
    quoteCode: dip.quoteCode,
    shareSlug: dip.shareSlug,
    shareUrl: shareUrlOf(publicUrl, dip.shareSlug),
    status: dip.linkStatus,
    linkRevokedAt: dip.linkRevokedAt?.toISOString() ?? null,
    expiresAt: dip.expiresAt.toISOString(),
    createdAt: dip.createdAt.toISOString(),
    snapshot: dip.snapshot,
  };
}

/**
 * What other services ask dip directly (docs/decisions/0083-read-your-own-writes-across-services.md):
 * sharing, the DIP's link as it is now; search, which saved searches have an application.
 */
export function registerInternalReads(app: FastifyInstance, deps: InternalReadDeps) {
  registerInternalRead<{ dipId: string }, never>(
    app,
    deps.internalSecret,
    { method: 'GET', path: DIP_INTERNAL_PATHS.dipState },
    async (request) => {
      const { dipId } = request.params;
      const dip = isDipId(dipId) ? await deps.dips.findById(dipId) : null;
      return dip ? dipStateOf(dip, deps.publicUrl) : null;
    },
  );
  registerInternalRead<never, unknown>(
    app,
    deps.internalSecret,
    { method: 'POST', path: DIP_INTERNAL_PATHS.searchesWithApplications },
    async (request) => {
      const body = searchesWithApplicationsBodySchema.safeParse(request.body);
      if (!body.success) throw badRequest('userId and searchIds (at most 1,000) are required');
      const { userId, searchIds } = body.data;
      return searchesWithApplicationsResponseSchema.parse({
        searchIds: await deps.applications.searchesWithApplications(userId, searchIds),
      });
    },
  );
}
