import { createHash } from 'node:crypto';
import {
  type PanelActivation,
  type PanelAuditEntry,
  type PanelOverview,
  type PanelVersionSummary,
  SEARCH_EVENTS,
} from '@lsp/contracts';
import { type EventOutbox, serviceUnavailable } from '@lsp/service-kit';
import type { Connection } from 'mongoose';
import type { Logger } from 'pino';
import { diffPanels, withSameTerms } from '../panel/diff';
import { type PanelVersionDocument, panelModels } from './models/panel-versions';
import { type Panel, panelSchema } from '../panel/schema';

/** What the command line reports of loading a file: stored or found, then made active. */
export interface PanelFileActivation {
  version: string;
  previousVersion: string | null;
  lenderCount: number;
  productCount: number;
  /** False when this exact panel was already stored under its version and only made active again. */
  stored: boolean;
}

export class PanelVersionClashError extends Error {
  constructor(readonly version: string) {
    super(
      `Panel version ${version} is already stored with different content: give the new panel a new version in its header line`,
    );
    this.name = 'PanelVersionClashError';
  }
}

function checksumOf(panel: Panel): string {
  return createHash('sha256').update(JSON.stringify(panel)).digest('hex');
}

const productCountOf = (panel: Panel) =>
  panel.lenders.reduce((sum, lender) => sum + lender.products.length, 0);

export class PanelVersionNotFoundError extends Error {
  constructor(readonly version: string) {
    super(`No panel version ${version} is stored`);
    this.name = 'PanelVersionNotFoundError';
  }
}

export class PanelAlreadyActiveError extends Error {
  constructor(readonly version: string) {
    super(`Panel version ${version} is already the active panel`);
    this.name = 'PanelAlreadyActiveError';
  }
}

/** Who stored or activated a version, and how it was made. */
export interface PanelAuthor {
  operator: string;
  source: string;
}

/** The audit trail's length on the Lender panel page. */
const AUDIT_SHOWN = 200;

/**
 * The lender panel, versioned in the service's own collections: `panel_versions` keeps every panel
 * ever stored (drafts among them), `panel_state` names the active one, `panel_audit` records each act
 * with its operator. Activating a version publishes `panel.activated` through the outbox in the same
 * transaction, and every search instance switches on that event; each process also checks the active
 * version every `refreshMs`, a safety net for an event that is late. Searches read the panel from
 * memory and never wait on the database for it.
 */
export class PanelStore {
  private active: Panel | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly models;

  constructor(
    private readonly connection: Connection,
    private readonly logger: Pick<Logger, 'info' | 'warn' | 'error'>,
    /** Where activations write `panel.activated`; a store without one can load and read, not activate. */
    private readonly outbox?: EventOutbox,
  ) {
    this.models = panelModels(connection);
  }

  /** The panel searches use now; 503 until one is loaded. */
  current(): Panel {
    if (!this.active)
      throw serviceUnavailable('The lender panel is not loaded yet. Please try again shortly.');
    return this.active;
  }

  currentVersion(): string | null {
    return this.active?.version ?? null;
  }

  /**
   * Stores a validated panel under its version, not yet active. Storing the same panel again is a
   * no-op (`stored: false`); a different panel under a stored version is refused, so a version always
   * means one panel.
   */
  async storeDraft(
    panel: Panel,
    author: PanelAuthor,
    action: 'uploaded' | 'edited' = 'uploaded',
  ): Promise<{ summary: PanelVersionSummary; stored: boolean }> {
    const checksum = checksumOf(panel);
    let stored = false;
    await this.connection.transaction(async (session) => {
      const existing = await this.models.versions
        .findById(panel.version, { checksum: 1 })
        .session(session)
        .lean();
      if (existing && existing.checksum !== checksum) throw new PanelVersionClashError(panel.version);
      if (existing) return;
      const now = new Date();
      await this.models.versions.create(
        [
          {
            _id: panel.version,
            effectiveFrom: panel.effectiveFrom,
            description: panel.description ?? null,
            checksum,
            lenderCount: panel.lenders.length,
            productCount: productCountOf(panel),
            source: author.source,
            panel,
            loadedAt: now,
            createdBy: author.operator,
            activatedAt: null,
            activatedBy: null,
          },
        ],
        { session },
      );
      await this.models.audit.create(
        [{ at: now, operator: author.operator, action, version: panel.version, detail: author.source }],
        { session },
      );
      stored = true;
    });
    const summary = await this.summary(panel.version);
    return { summary: summary!, stored };
  }

  /**
   * Makes a stored version the active panel (one that was active before: a rollback), records it with
   * its operator and writes `panel.activated` with the products it changes, all in one transaction;
   * then this process switches at once.
   */
  async activateVersion(version: string, operator: string): Promise<PanelActivation> {
    const outbox = this.outbox;
    if (!outbox)
      throw new Error('this panel store has no outbox: an activation must publish panel.activated');
    let activation: PanelActivation | undefined;
    let panel: Panel | undefined;
    await this.connection.transaction(async (session) => {
      const target = await this.models.versions.findById(version).session(session).lean();
      if (!target) throw new PanelVersionNotFoundError(version);
      const state = await this.models.state.findById('active').session(session).lean();
      if (state?.version === version) throw new PanelAlreadyActiveError(version);
      const previous = state
        ? await this.models.versions.findById(state.version).session(session).lean()
        : null;
      panel = panelSchema.parse(target.panel);
      const changes = diffPanels(previous ? panelSchema.parse(previous.panel) : null, panel).products;
      // Every version that was ever active, for the terms a DIP priced under one of them was issued on.
      const everActive = await this.models.versions
        .find({ _id: { $ne: version }, activatedAt: { $ne: null } }, { panel: 1 })
        .session(session)
        .lean();
      const now = new Date();
      const rollback = (target.activatedAt ?? null) !== null;
      await this.models.versions.updateOne(
        { _id: version },
        { $set: { activatedAt: now, activatedBy: operator } },
        { session },
      );
      await this.models.state.updateOne(
        { _id: 'active' },
        { $set: { version, previousVersion: state?.version ?? null, activatedAt: now } },
        { upsert: true, session },
      );
      const detail = `${rollback ? 'back to' : 'made active'} ${version} from ${state?.version ?? 'none'}: ${changes.length} products changed`;
      await this.models.audit.create(
        [{ at: now, operator, action: rollback ? 'rolled-back' : 'activated', version, detail }],
        { session },
      );
      activation = {
        version,
        previousVersion: state?.version ?? null,
        rollback,
        activatedBy: operator,
        activatedAt: now.toISOString(),
        changedProducts: changes.length,
      };
      await outbox.add(
        [
          SEARCH_EVENTS.panelActivated.envelope({
            ...activation,
            changedProducts: withSameTerms(
              changes.map(({ lenderId, productId, change }) => ({ lenderId, productId, change })),
              panel,
              everActive.map((v) => panelSchema.parse(v.panel)),
            ),
          }),
        ],
        session,
      );
    });
    this.active = panel!;
    this.logger.info({ ...activation }, 'lender panel activated');
    return activation!;
  }

  /**
   * The command line's one step: stores the panel if new (refusing a clash) and makes it active
   * (again, for one stored before: a rollback is re-loading the older file), through the same code
   * path as the Lender panel page.
   */
  async activate(panel: Panel, author: PanelAuthor): Promise<PanelFileActivation> {
    const { stored } = await this.storeDraft(panel, author);
    const state = await this.models.state.findById('active').lean();
    let previousVersion: string | null;
    if (state?.version === panel.version) {
      // Already the active version: this process takes it up, nothing else changes.
      previousVersion = state.previousVersion;
      this.active = panel;
    } else {
      ({ previousVersion } = await this.activateVersion(panel.version, author.operator));
    }
    return {
      version: panel.version,
      previousVersion,
      lenderCount: panel.lenders.length,
      productCount: productCountOf(panel),
      stored,
    };
  }

  /** A stored version's panel, validated on the way in; null for a version never stored. */
  async readVersion(version: string): Promise<Panel | null> {
    const stored = await this.models.versions.findById(version).lean();
    // A hand-edited document must not reach the engine.
    return stored ? panelSchema.parse(stored.panel) : null;
  }

  /** Reads the active panel from the collection; null when none was ever loaded. */
  async readActive(): Promise<Panel | null> {
    const state = await this.models.state.findById('active').lean();
    if (!state) return null;
    const panel = await this.readVersion(state.version);
    if (!panel) throw new Error(`the active panel version ${state.version} is missing from panel_versions`);
    return panel;
  }

  /**
   * Loads the active panel; when the collection holds none, stores `seed()` as the first version and
   * makes it active (a fresh database starts with the panel shipped with the service; nothing moved
   * for anyone, so no event).
   */
  async load(seed: () => Panel): Promise<Panel> {
    const stored = await this.readActive();
    if (stored) {
      this.active = stored;
      this.logger.info({ version: stored.version, lenders: stored.lenders.length }, 'lender panel loaded');
      return stored;
    }
    const panel = seed();
    const now = new Date();
    const author = 'the platform, on its first start';
    await this.connection.transaction(async (session) => {
      if (await this.models.state.findById('active').session(session).lean()) return;
      await this.models.versions.updateOne(
        { _id: panel.version },
        {
          $setOnInsert: {
            effectiveFrom: panel.effectiveFrom,
            description: panel.description ?? null,
            checksum: checksumOf(panel),
            lenderCount: panel.lenders.length,
            productCount: productCountOf(panel),
            source: 'seed',
            panel,
            loadedAt: now,
            createdBy: null,
          },
          $set: { activatedAt: now, activatedBy: author },
        },
        { upsert: true, session },
      );
      await this.models.state.create(
        [{ _id: 'active', version: panel.version, previousVersion: null, activatedAt: now }],
        {
          session,
        },
      );
      await this.models.audit.create(
        [{ at: now, operator: author, action: 'activated', version: panel.version, detail: 'seed' }],
        { session },
      );
    });
    const active = (await this.readActive()) ?? panel;
    this.active = active;
    this.logger.info({ version: active.version }, 'lender panel seeded');
    return active;
  }

  /** Picks up a panel another process activated; returns true when the version changed. */
  async refresh(): Promise<boolean> {
    const state = await this.models.state.findById('active', { version: 1 }).lean();
    if (!state || state.version === this.active?.version) return false;
    const panel = await this.readActive();
    if (!panel) return false;
    const from = this.active?.version ?? null;
    this.active = panel;
    this.logger.info({ from, to: panel.version }, 'lender panel replaced');
    return true;
  }

  startRefreshing(intervalMs: number): void {
    this.stopRefreshing();
    this.timer = setInterval(() => {
      this.refresh().catch((err) => this.logger.warn({ err }, 'lender panel refresh failed'));
    }, intervalMs);
    this.timer.unref();
  }

  stopRefreshing(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Records an act on the panel that changes no version (an impact measured). */
  async recordAudit(entry: Omit<PanelAuditEntry, 'at'>): Promise<void> {
    await this.models.audit.create({ ...entry, at: new Date() });
  }

  /** Versions stored, newest first, for the operator. */
  async listVersions() {
    return this.models.versions.find({}, { panel: 0 }).sort({ loadedAt: -1 }).lean();
  }

  /** One version as the Lender panel page lists it; null for a version never stored. */
  async summary(version: string): Promise<PanelVersionSummary | null> {
    const [doc, state] = await Promise.all([
      this.models.versions.findById(version, { panel: 0 }).lean(),
      this.models.state.findById('active').lean(),
    ]);
    return doc ? summaryOf(doc, state?.version ?? null) : null;
  }

  /** The Lender panel page: the active version, every version and the audit trail, newest first. */
  async overview(): Promise<PanelOverview> {
    const [docs, state, audit] = await Promise.all([
      this.listVersions(),
      this.models.state.findById('active').lean(),
      this.models.audit.find().sort({ at: -1, _id: -1 }).limit(AUDIT_SHOWN).lean(),
    ]);
    const versions = docs.map((doc) => summaryOf(doc, state?.version ?? null));
    return {
      active: versions.find((v) => v.status === 'active') ?? null,
      versions,
      audit: audit.map((entry): PanelAuditEntry => ({
        at: entry.at.toISOString(),
        operator: entry.operator,
        action: entry.action,
        version: entry.version,
        detail: entry.detail,
      })),
    };
  }
}

function summaryOf(
  doc: Omit<PanelVersionDocument, 'panel'>,
  activeVersion: string | null,
): PanelVersionSummary {
  const activatedAt = doc.activatedAt ?? null;
  return {
    version: doc._id,
    effectiveFrom: doc.effectiveFrom,
    description: doc.description ?? null,
    status: doc._id === activeVersion ? 'active' : activatedAt ? 'previous' : 'draft',
    lenderCount: doc.lenderCount,
    productCount: doc.productCount,
    source: doc.source,
    createdBy: doc.createdBy ?? null,
    createdAt: doc.loadedAt.toISOString(),
    activatedBy: doc.activatedBy ?? null,
    activatedAt: activatedAt?.toISOString() ?? null,
  };
}
