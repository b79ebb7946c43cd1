import { z } from 'zod';
import {
  INVALID_REQUEST,
  NOT_SIGNED_IN,
  type RouteResponse,
  defineRoute,
  errorAnswer,
  errorResponseSchema,
} from '../api/route';
import { LOAN_TYPES, PROPERTY_CLASSES, REGIONS } from '../common/enums';

/**
 * The lender panel as operations run it (owned by search, which owns the panel): versions are
 * uploaded or edited into drafts, compared with the active one, their impact on saved searches is
 * measured, and one is activated (or an earlier one rolled back to) — each act recorded with its
 * operator. Only the `ops` role may do any of it.
 */

/** A stored version: a draft never made active, the active one, or one that was active before. */
export const PANEL_VERSION_STATUSES = ['draft', 'active', 'previous'] as const;
export const PANEL_AUDIT_ACTIONS = [
  'uploaded',
  'edited',
  'impact-measured',
  'activated',
  'rolled-back',
] as const;
/** Saved searches older than this are not re-priced (their deals have moved on). */
export const PANEL_REPRICING_WINDOW_DAYS = 90;

export const PANEL_OPS_MESSAGES = {
  fileRefused: 'The panel file has problems: nothing was stored',
  editRefused: 'The edited panel has problems: nothing was stored',
  versionClash: 'A panel with this version is already stored: give the new panel a new version',
  noSuchVersion: 'No panel version with this name',
  noSuchProduct: 'The active panel has no such lender and product',
  alreadyActive: 'This version is already the active panel',
  noImpact: 'No impact has been measured for this version yet',
} as const;

/**
 * A new version's name: it becomes one segment of the panel's URLs (view, diff, impact, activate), so
 * only letters, digits, dots, hyphens and underscores, starting with a letter or digit; a `/` or `?`
 * would make a version no URL can reach.
 */
export const PANEL_VERSION_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
export const PANEL_VERSION_MAX_LENGTH = 100;
export const PANEL_VERSION_RULES = {
  required: 'Version is required',
  tooLong: `Version is at most ${PANEL_VERSION_MAX_LENGTH} characters`,
  characters:
    'Version may hold only letters, digits, dots, hyphens and underscores, and start with a letter or digit',
} as const;

/** A version named in a URL: any stored name (versions stored before the naming rule included). */
const version = z
  .string({ error: PANEL_VERSION_RULES.required })
  .max(PANEL_VERSION_MAX_LENGTH, PANEL_VERSION_RULES.tooLong)
  .trim()
  .min(1, PANEL_VERSION_RULES.required);

/** The name of a version being made: length first, then the characters a URL segment takes as is. */
export const newPanelVersionSchema = version.pipe(
  z.string().regex(PANEL_VERSION_PATTERN, PANEL_VERSION_RULES.characters),
);
const fraction = z.number().min(0).max(1);
const isoTime = z.string().datetime();

export const panelVersionSummarySchema = z.object({
  version: z.string(),
  effectiveFrom: z.string(),
  description: z.string().nullable(),
  status: z.enum(PANEL_VERSION_STATUSES),
  lenderCount: z.number().int(),
  productCount: z.number().int(),
  /** How it was made: 'seed', 'upload: panel.jsonl', 'edit of <version>: <lender>/<product>', 'command line: <file>'. */
  source: z.string(),
  createdBy: z.string().nullable(),
  createdAt: isoTime,
  /** The last time it was made active, and by whom; null for a version never active. */
  activatedBy: z.string().nullable(),
  activatedAt: isoTime.nullable(),
});
export type PanelVersionSummary = z.infer<typeof panelVersionSummarySchema>;

export const panelAuditEntrySchema = z.object({
  at: isoTime,
  operator: z.string(),
  action: z.enum(PANEL_AUDIT_ACTIONS),
  version: z.string(),
  detail: z.string(),
});
export type PanelAuditEntry = z.infer<typeof panelAuditEntrySchema>;

export const panelOverviewSchema = z.object({
  active: panelVersionSummarySchema.nullable(),
  /** Newest first. */
  versions: z.array(panelVersionSummarySchema),
  /** Newest first; the last 200 acts. */
  audit: z.array(panelAuditEntrySchema),
});
export type PanelOverview = z.infer<typeof panelOverviewSchema>;

/** A rate band as the form edits it: per month for bridging (as bridging is priced), per year otherwise. */
const rateBand = z.object({ maxRatio: fraction, rate: z.number().positive().max(0.3) });
/** Max loan-to-value (loan-to-GDV for development) by loan size. */
const sizeBand = z.object({ upToLoan: z.number().int().positive(), maxRatio: fraction });
const fees = z.object({
  arrangementFeePct: z.number().min(0).max(0.05),
  minArrangementFee: z.number().int().nonnegative(),
  exitFeePct: z.number().min(0).max(0.03),
  otherCosts: z.number().int().nonnegative().max(100_000),
});

/** One product's editable terms, as the Lender panel page shows and edits them. */
export const panelProductViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  loanType: z.enum(LOAN_TYPES),
  ratePer: z.enum(['month', 'year']),
  rateCard: z.array(rateBand),
  maxRatioBands: z.array(sizeBand),
  fees,
  minLoan: z.number().int(),
  maxLoan: z.number().int(),
  minTermMonths: z.number().int(),
  maxTermMonths: z.number().int(),
  refusedPropertyClasses: z.array(z.enum(PROPERTY_CLASSES)),
});
export type PanelProductView = z.infer<typeof panelProductViewSchema>;

export const panelVersionDetailSchema = z.object({
  summary: panelVersionSummarySchema,
  lenders: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      regions: z.array(z.enum(REGIONS)),
      products: z.array(panelProductViewSchema),
    }),
  ),
});
export type PanelVersionDetail = z.infer<typeof panelVersionDetailSchema>;

export const panelUploadBodySchema = z.object({
  fileName: z.string().max(200).trim().min(1).optional(),
  /** The panel file (JSON Lines: a header line, then one lender per line), as text. */
  content: z
    .string({ error: 'The panel file is required' })
    .min(1, 'The panel file is empty')
    .max(500_000, 'The panel file is larger than 500 KB'),
});

/** The lists a product edit chooses from: the property classes it refuses, its lender's regions. */
const refusedClasses = z.array(z.enum(PROPERTY_CLASSES));
const regionList = z.array(z.enum(REGIONS));

/**
 * What the Lender panel page's edit form says of a name or a region missing, and the refusal of an
 * edit that changes nothing (the service's word too).
 */
export const PANEL_EDIT_MESSAGES = {
  nothingChanged: 'Change at least one term',
  versionMissing: 'Give the new version a name',
  regionsMissing: 'Choose at least one region',
} as const;

/** A draft made from the active panel with one product's terms (and its lender's regions) changed. */
export const panelProductEditBodySchema = z.object({
  version: newPanelVersionSchema,
  description: z.string().max(500).trim().optional(),
  lenderId: z.string({ error: 'Lender id is required' }).min(1, 'Lender id is required').max(100),
  productId: z.string({ error: 'Product id is required' }).min(1, 'Product id is required').max(100),
  changes: z
    .object(
      {
        rateCard: z.array(rateBand).min(1).max(20),
        maxRatioBands: z.array(sizeBand).min(1).max(20),
        fees: fees.partial(),
        minLoan: z.number().int().positive(),
        maxLoan: z.number().int().positive(),
        minTermMonths: z.number().int().positive(),
        maxTermMonths: z.number().int().positive(),
        refusedPropertyClasses: refusedClasses,
        regions: regionList.min(1),
      },
      { error: PANEL_EDIT_MESSAGES.nothingChanged },
    )
    .partial()
    .refine((changes) => Object.keys(changes).length > 0, PANEL_EDIT_MESSAGES.nothingChanged),
});
export type PanelProductEditBody = z.infer<typeof panelProductEditBodySchema>;

/** A number field of the edit form: null while it is empty. */
const emptyOrNumber = z.number().nullable();

/** A field left empty is a problem, named by its label ('Minimum loan is required'); its value otherwise. */
function filledIn(value: number | null, ctx: z.RefinementCtx, label: string, path: PropertyKey[] = []) {
  if (value === null) {
    ctx.addIssue({ code: 'custom', message: `${label} is required`, path });
    return z.NEVER;
  }
  return value;
}

const requiredTerm = (label: string) => emptyOrNumber.transform((value, ctx) => filledIn(value, ctx, label));

/**
 * The Lender panel page's form for the edit: the new version's name and description as the body
 * takes them, and the product's terms as the page shows them (ratios and fees as percentages, money
 * in pounds), every one filled in and at least one region chosen. The page turns the terms into the
 * body's `changes` (fractions, only the terms changed); the rest of the terms' rules are the
 * service's, which answers each problem.
 */
export const panelProductEditFormSchema = z.object({
  version: z
    .string()
    .max(PANEL_VERSION_MAX_LENGTH, PANEL_VERSION_RULES.tooLong)
    .trim()
    .min(1, PANEL_EDIT_MESSAGES.versionMissing),
  description: panelProductEditBodySchema.shape.description.unwrap(),
  terms: z.object({
    rateCard: z
      .array(z.object({ maxRatioPct: emptyOrNumber, ratePct: emptyOrNumber }))
      .transform((bands, ctx) =>
        bands.map((band, i) => ({
          maxRatioPct: filledIn(band.maxRatioPct, ctx, `Rate band ${i + 1}: up to ratio`, [i, 'maxRatioPct']),
          ratePct: filledIn(band.ratePct, ctx, `Rate band ${i + 1}: rate`, [i, 'ratePct']),
        })),
      ),
    maxRatioBands: z
      .array(z.object({ upToLoan: emptyOrNumber, maxRatioPct: emptyOrNumber }))
      .transform((bands, ctx) =>
        bands.map((band, i) => ({
          upToLoan: filledIn(band.upToLoan, ctx, `Size band ${i + 1}: loans up to`, [i, 'upToLoan']),
          maxRatioPct: filledIn(band.maxRatioPct, ctx, `Size band ${i + 1}: max ratio`, [i, 'maxRatioPct']),
        })),
      ),
    arrangementFeePct: requiredTerm('Arrangement fee'),
    minArrangementFee: requiredTerm('Minimum arrangement fee'),
    exitFeePct: requiredTerm('Exit fee'),
    otherCosts: requiredTerm('Other costs'),
    minLoan: requiredTerm('Minimum loan'),
    maxLoan: requiredTerm('Maximum loan'),
    minTermMonths: requiredTerm('Minimum term'),
    maxTermMonths: requiredTerm('Maximum term'),
    refusedPropertyClasses: refusedClasses,
    regions: regionList.min(1, PANEL_EDIT_MESSAGES.regionsMissing),
  }),
});
/** The form's values as its fields hold them (an empty number field is null). */
export type PanelProductEditForm = z.input<typeof panelProductEditFormSchema>;

/** What is wrong with a panel file or an edit: the line (null for the whole panel) and the reason. */
export const panelProblemSchema = z.object({ line: z.number().int().nullable(), reason: z.string() });
/**
 * A refused upload or edit: `problems` lists what is wrong with the panel it would make; a body the
 * route's schema refuses before any panel is made has none (its `error` and `fields` say what is wrong).
 */
export const panelRefusedSchema = errorResponseSchema.extend({
  problems: z.array(panelProblemSchema).optional(),
});

export const panelFieldChangeSchema = z.object({
  /** The term's path in the product, e.g. `fees.arrangementFeePct` or `rateCard[0].ratePerYear`. */
  field: z.string(),
  before: z.unknown(),
  after: z.unknown(),
});

/** What a version does to a product or a lender against another: there, gone, or different. */
export const PANEL_CHANGES = ['added', 'removed', 'changed'] as const;
const changed = { change: z.enum(PANEL_CHANGES), fields: z.array(panelFieldChangeSchema) };

export const panelProductChangeSchema = z.object({
  lenderId: z.string(),
  lenderName: z.string(),
  productId: z.string(),
  productName: z.string(),
  ...changed,
});
export type PanelProductChange = z.infer<typeof panelProductChangeSchema>;

export const panelDiffSchema = z.object({
  version: z.string(),
  /** The active version it is compared with; null when none is active. */
  against: z.string().nullable(),
  products: z.array(panelProductChangeSchema),
  /** Lender-level terms (name, regions) that changed, as `<lenderId>.regions`. */
  lenders: z.array(z.object({ lenderId: z.string(), ...changed })),
});
export type PanelDiff = z.infer<typeof panelDiffSchema>;

/** Saved searches of the last 90 days re-priced against a version, compared with the active panel. */
export const panelImpactSchema = z.object({
  version: z.string(),
  against: z.string().nullable(),
  status: z.enum(['running', 'done', 'failed']),
  /** Saved searches to re-price, and how many are done (the progress bar). */
  total: z.number().int(),
  done: z.number().int(),
  /** Searches that would get an offer from a product that offers nothing today. */
  gainOffer: z.number().int(),
  /** Searches that would lose an offer they have today. */
  loseOffer: z.number().int(),
  /** Searches whose best offer (largest net loan, then lowest rate) would be better, or worse (or gone). */
  betterBest: z.number().int(),
  worseBest: z.number().int(),
  unchanged: z.number().int(),
  /** Saved searches whose stored form no longer passes today's validation, left out of the counts. */
  skipped: z.number().int(),
  startedAt: isoTime,
  finishedAt: isoTime.nullable(),
  startedBy: z.string(),
});
export type PanelImpact = z.infer<typeof panelImpactSchema>;

export const panelActivationSchema = z.object({
  version: z.string(),
  previousVersion: z.string().nullable(),
  /** True when the version was active before (going back to it). */
  rollback: z.boolean(),
  activatedBy: z.string(),
  activatedAt: isoTime,
  changedProducts: z.number().int(),
});
export type PanelActivation = z.infer<typeof panelActivationSchema>;

const OPS_ONLY: Record<401 | 403, RouteResponse> = {
  401: NOT_SIGNED_IN,
  403: errorAnswer('Signed in without the ops role'),
};
const versionParams = z.object({ version });
const NO_SUCH_VERSION = errorAnswer(PANEL_OPS_MESSAGES.noSuchVersion);

export const PANEL_OPS_ROUTES = [
  defineRoute({
    operationId: 'getLenderPanel',
    method: 'GET',
    path: '/api/ops/panel',
    service: 'search',
    summary: 'The active lender panel, every stored version and the audit trail',
    auth: 'ops',
    responses: { 200: { description: 'The panel overview', schema: panelOverviewSchema }, ...OPS_ONLY },
  }),
  defineRoute({
    operationId: 'uploadPanelDraft',
    method: 'POST',
    path: '/api/ops/panel/drafts',
    service: 'search',
    summary: 'Store a panel file as a draft version, validated in full (each bad line with its reason)',
    auth: 'ops',
    body: panelUploadBodySchema,
    responses: {
      201: { description: 'The draft', schema: panelVersionSummarySchema },
      400: {
        description: 'The file is refused: each problem with its line (`fields` for a refused body)',
        schema: panelRefusedSchema,
      },
      ...OPS_ONLY,
      409: errorAnswer(PANEL_OPS_MESSAGES.versionClash),
    },
  }),
  defineRoute({
    operationId: 'editPanelProduct',
    method: 'POST',
    path: '/api/ops/panel/drafts/product-edit',
    service: 'search',
    summary: "Make a draft from the active panel with one product's terms changed",
    auth: 'ops',
    body: panelProductEditBodySchema,
    responses: {
      201: { description: 'The draft', schema: panelVersionSummarySchema },
      400: {
        description: 'The edit is refused: each problem (`fields` for a refused body)',
        schema: panelRefusedSchema,
      },
      ...OPS_ONLY,
      404: errorAnswer(PANEL_OPS_MESSAGES.noSuchProduct),
      409: errorAnswer(PANEL_OPS_MESSAGES.versionClash),
    },
  }),
  defineRoute({
    operationId: 'getPanelVersion',
    method: 'GET',
    path: '/api/ops/panel/versions/:version',
    service: 'search',
    summary: "One version's lenders and each product's editable terms",
    auth: 'ops',
    params: versionParams,
    responses: {
      200: { description: 'The version', schema: panelVersionDetailSchema },
      400: INVALID_REQUEST,
      ...OPS_ONLY,
      404: NO_SUCH_VERSION,
    },
  }),
  defineRoute({
    operationId: 'getPanelDiff',
    method: 'GET',
    path: '/api/ops/panel/versions/:version/diff',
    service: 'search',
    summary: 'What a version changes against the active panel, product by product and field by field',
    auth: 'ops',
    params: versionParams,
    responses: {
      200: { description: 'The changes', schema: panelDiffSchema },
      400: INVALID_REQUEST,
      ...OPS_ONLY,
      404: NO_SUCH_VERSION,
    },
  }),
  defineRoute({
    operationId: 'startPanelImpact',
    method: 'POST',
    path: '/api/ops/panel/versions/:version/impact',
    service: 'search',
    summary: "Re-price the last 90 days' saved searches against a version, in the background",
    auth: 'ops',
    params: versionParams,
    responses: {
      202: { description: 'Started (or already running): poll its progress', schema: panelImpactSchema },
      400: INVALID_REQUEST,
      ...OPS_ONLY,
      404: NO_SUCH_VERSION,
    },
  }),
  defineRoute({
    operationId: 'getPanelImpact',
    method: 'GET',
    path: '/api/ops/panel/versions/:version/impact',
    service: 'search',
    summary: "The impact measurement's progress and counts",
    auth: 'ops',
    params: versionParams,
    responses: {
      200: { description: 'The impact so far', schema: panelImpactSchema },
      400: INVALID_REQUEST,
      ...OPS_ONLY,
      404: errorAnswer(PANEL_OPS_MESSAGES.noImpact),
    },
  }),
  defineRoute({
    operationId: 'activatePanelVersion',
    method: 'POST',
    path: '/api/ops/panel/versions/:version/activate',
    service: 'search',
    summary: 'Make a version the active panel (an earlier one: a rollback); every search switches to it',
    auth: 'ops',
    params: versionParams,
    responses: {
      200: { description: 'Activated', schema: panelActivationSchema },
      400: INVALID_REQUEST,
      ...OPS_ONLY,
      404: NO_SUCH_VERSION,
      409: errorAnswer(PANEL_OPS_MESSAGES.alreadyActive),
    },
  }),
] as const;
