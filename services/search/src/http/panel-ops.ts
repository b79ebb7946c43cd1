import { PANEL_OPS_MESSAGES } from '@lsp/contracts';
import { type CallerIdentity, badRequest, conflict, declareRoute, notFound } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import {
  PanelAlreadyActiveError,
  type PanelStore,
  PanelVersionClashError,
  PanelVersionNotFoundError,
} from '../data/panel-store';
import { parsePanelFile } from '../panel';
import { diffPanels } from '../panel/diff';
import { applyProductEdit, productView } from '../panel/product-edit';
import type { PanelImpactRunner } from '../searching/panel-impact';

export interface PanelOpsDeps {
  panels: PanelStore;
  impacts: PanelImpactRunner;
}

/** Who did it, for the audit trail: the operator's email where the session carries one. */
const operatorOf = (caller: CallerIdentity) => caller.email || caller.userId;

/** The store's refusals in the contract's words. */
function asHttpError(err: unknown): unknown {
  if (err instanceof PanelVersionClashError) return conflict(PANEL_OPS_MESSAGES.versionClash);
  if (err instanceof PanelVersionNotFoundError) return notFound(PANEL_OPS_MESSAGES.noSuchVersion);
  if (err instanceof PanelAlreadyActiveError) return conflict(PANEL_OPS_MESSAGES.alreadyActive);
  return err;
}

async function answering<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw asHttpError(err);
  }
}

/** The Lender panel page's routes (ops role only, checked by the declarations). */
export function registerPanelOpsRoutes(app: FastifyInstance, deps: PanelOpsDeps): void {
  const { panels } = deps;

  declareRoute(app, 'getLenderPanel', async () => panels.overview());

  declareRoute(app, 'uploadPanelDraft', async (request, reply) => {
    const parsed = parsePanelFile(request.body.content);
    if (!parsed.ok) throw badRequest(PANEL_OPS_MESSAGES.fileRefused, { problems: parsed.errors });
    const name = request.body.fileName ?? 'panel file';
    const { summary } = await answering(() =>
      panels.storeDraft(parsed.panel, { operator: operatorOf(request.caller), source: `upload: ${name}` }),
    );
    reply.status(201);
    return summary;
  });

  declareRoute(app, 'editPanelProduct', async (request, reply) => {
    const edit = request.body;
    const outcome = applyProductEdit(panels.current(), edit);
    if (!outcome.ok && outcome.notFound) throw notFound(PANEL_OPS_MESSAGES.noSuchProduct);
    if (!outcome.ok) throw badRequest(PANEL_OPS_MESSAGES.editRefused, { problems: outcome.problems });
    const source = `edit of ${panels.current().version}: ${edit.lenderId}/${edit.productId}`;
    const { summary } = await answering(() =>
      panels.storeDraft(outcome.panel, { operator: operatorOf(request.caller), source }, 'edited'),
    );
    reply.status(201);
    return summary;
  });

  declareRoute(app, 'getPanelVersion', async (request) => {
    const { version } = request.params;
    const [panel, summary] = await Promise.all([panels.readVersion(version), panels.summary(version)]);
    if (!panel || !summary) throw notFound(PANEL_OPS_MESSAGES.noSuchVersion);
    return {
      summary,
      lenders: panel.lenders.map((lender) => ({
        id: lender.id,
        name: lender.name,
        regions: lender.regions,
        products: lender.products.map(productView),
      })),
    };
  });

  declareRoute(app, 'getPanelDiff', async (request) => {
    const { version } = request.params;
    const panel = await panels.readVersion(version);
    if (!panel) throw notFound(PANEL_OPS_MESSAGES.noSuchVersion);
    const active = panels.current();
    return { version, against: active.version, ...diffPanels(active, panel) };
  });

  declareRoute(app, 'startPanelImpact', async (request, reply) => {
    const impact = await answering(() =>
      deps.impacts.start(request.params.version, operatorOf(request.caller)),
    );
    reply.status(202);
    return impact;
  });

  declareRoute(app, 'getPanelImpact', async (request) => {
    const impact = await deps.impacts.find(request.params.version);
    if (!impact) throw notFound(PANEL_OPS_MESSAGES.noImpact);
    return impact;
  });

  declareRoute(app, 'activatePanelVersion', async (request) =>
    answering(() => panels.activateVersion(request.params.version, operatorOf(request.caller))),
  );
}
