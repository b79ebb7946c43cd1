import { declareRoute } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';
import {
  type PanelOpsDeps,
  activatePanelVersion,
  editPanelProduct,
  panelDiff,
  panelImpact,
  panelOverview,
  panelVersion,
  startPanelImpact,
  uploadPanelDraft,
} from '../use-cases/panel-ops';

/** The Lender panel page's routes (ops role only, checked by the declarations). */
export function registerPanelOpsRoutes(app: FastifyInstance, deps: PanelOpsDeps): void {
  declareRoute(app, 'getLenderPanel', async () => panelOverview(deps));

  declareRoute(app, 'uploadPanelDraft', async (request, reply) => {
    const draft = await uploadPanelDraft(deps, request.caller, request.body);
    reply.status(201);
    return draft;
  });

  declareRoute(app, 'editPanelProduct', async (request, reply) => {
    const draft = await editPanelProduct(deps, request.caller, request.body);
    reply.status(201);
    return draft;
  });

  declareRoute(app, 'getPanelVersion', async (request) => panelVersion(deps, request.params.version));

  declareRoute(app, 'getPanelDiff', async (request) => panelDiff(deps, request.params.version));

  declareRoute(app, 'startPanelImpact', async (request, reply) => {
    const impact = await startPanelImpact(deps, request.caller, request.params.version);
    reply.status(202);
    return impact;
  });

  declareRoute(app, 'getPanelImpact', async (request) => panelImpact(deps, request.params.version));

  declareRoute(app, 'activatePanelVersion', async (request) =>
    activatePanelVersion(deps, request.caller, request.params.version),
  );
}
