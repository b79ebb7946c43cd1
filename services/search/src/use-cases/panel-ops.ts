import { PANEL_OPS_MESSAGES, type PanelProductEditBody } from '@lsp/contracts';
import { type CallerIdentity, badRequest, conflict, notFound } from '@lsp/service-kit';
import {
  PanelAlreadyActiveError,
  type PanelStore,
  PanelVersionClashError,
  PanelVersionNotFoundError,
} from '../data/panel-store';
import { parsePanelFile } from '../panel';
import { diffPanels } from '../panel/diff';
import { applyProductEdit, productView } from '../panel/product-edit';
import type { PanelImpactRunner } from './panel-impact';

export interface PanelOpsDeps {
  panels: PanelStore;
  impacts: PanelImpactRunner;
}

/** A panel file as the Lender panel page uploads it. */
export interface PanelUpload {
  content: string;
  fileName?: string;
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

/** The active panel, every stored version and the audit trail. */
export function panelOverview(deps: Pick<PanelOpsDeps, 'panels'>) {
  return deps.panels.overview();
}

/** Stores an uploaded panel file as a draft version, validated in full (each bad line with its reason). */
export async function uploadPanelDraft(
  deps: Pick<PanelOpsDeps, 'panels'>,
  caller: CallerIdentity,
  upload: PanelUpload,
) {
  const parsed = parsePanelFile(upload.content);
  if (!parsed.ok) throw badRequest(PANEL_OPS_MESSAGES.fileRefused, { problems: parsed.errors });
  const name = upload.fileName ?? 'panel file';
  const { summary } = await answering(() =>
    deps.panels.storeDraft(parsed.panel, { operator: operatorOf(caller), source: `upload: ${name}` }),
  );
  return summary;
}

/** Stores as a draft the active panel with one product's terms (and its lender's regions) changed. */
export async function editPanelProduct(
  deps: Pick<PanelOpsDeps, 'panels'>,
  caller: CallerIdentity,
  edit: PanelProductEditBody,
) {
  const { panels } = deps;
  const outcome = applyProductEdit(panels.current(), edit);
  if (!outcome.ok && outcome.notFound) throw notFound(PANEL_OPS_MESSAGES.noSuchProduct);
  if (!outcome.ok) throw badRequest(PANEL_OPS_MESSAGES.editRefused, { problems: outcome.problems });
  const source = `edit of ${panels.current().version}: ${edit.lenderId}/${edit.productId}`;
  const { summary } = await answering(() =>
    panels.storeDraft(outcome.panel, { operator: operatorOf(caller), source }, 'edited'),
  );
  return summary;
}

/** One stored version: its summary and every lender's products. */
export async function panelVersion(deps: Pick<PanelOpsDeps, 'panels'>, version: string) {
  const { panels } = deps;
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
}

/** What a stored version changes against the active one. */
export async function panelDiff(deps: Pick<PanelOpsDeps, 'panels'>, version: string) {
  const { panels } = deps;
  const panel = await panels.readVersion(version);
  if (!panel) throw notFound(PANEL_OPS_MESSAGES.noSuchVersion);
  const active = panels.current();
  return { version, against: active.version, ...diffPanels(active, panel) };
}

/** Starts working out what a version would do to the saved searches. */
export function startPanelImpact(
  deps: Pick<PanelOpsDeps, 'impacts'>,
  caller: CallerIdentity,
  version: string,
) {
  return answering(() => deps.impacts.start(version, operatorOf(caller)));
}

export async function panelImpact(deps: Pick<PanelOpsDeps, 'impacts'>, version: string) {
  const impact = await deps.impacts.find(version);
  if (!impact) throw notFound(PANEL_OPS_MESSAGES.noImpact);
  return impact;
}

/** Makes a stored version the one searches run against. */
export function activatePanelVersion(
  deps: Pick<PanelOpsDeps, 'panels'>,
  caller: CallerIdentity,
  version: string,
) {
  return answering(() => deps.panels.activateVersion(version, operatorOf(caller)));
}
