import { createHash } from 'node:crypto';
import { serviceUnavailable } from '@lsp/service-kit';
import type { Connection } from 'mongoose';
import type { Logger } from 'pino';
import { panelModels } from './models/panel-versions';
import { type Panel, panelSchema } from '../panel/schema';

export interface PanelActivation {
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

/**
 * The lender panel, versioned in the service's own collections: `panel_versions` keeps every panel
 * ever loaded, `panel_state` names the active one. Searches read the panel from memory; each process
 * checks the active version every `refreshMs`, so a replacement by the operator's command reaches every
 * instance without a restart and a search never waits on the database for the panel.
 */
export class PanelStore {
  private active: Panel | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly models;

  constructor(
    private readonly connection: Connection,
    private readonly logger: Pick<Logger, 'info' | 'warn' | 'error'>,
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
   * Stores a validated panel under its version and makes it the active one, in one transaction.
   * Loading the same panel again only re-activates it (a rollback is re-loading the older file);
   * a different panel under a version already stored is refused, so a version always means one panel.
   */
  async activate(panel: Panel, source: string): Promise<PanelActivation> {
    const checksum = checksumOf(panel);
    const now = new Date();
    let activation: PanelActivation | undefined;
    await this.connection.transaction(async (session) => {
      const existing = await this.models.versions
        .findById(panel.version, { checksum: 1 })
        .session(session)
        .lean();
      if (existing && existing.checksum !== checksum) throw new PanelVersionClashError(panel.version);
      if (!existing) {
        await this.models.versions.create(
          [
            {
              _id: panel.version,
              effectiveFrom: panel.effectiveFrom,
              description: panel.description ?? null,
              checksum,
              lenderCount: panel.lenders.length,
              productCount: productCountOf(panel),
              source,
              panel,
              loadedAt: now,
            },
          ],
          { session },
        );
      }
      const state = await this.models.state.findById('active').session(session).lean();
      const previousVersion = state?.version ?? null;
      await this.models.state.updateOne(
        { _id: 'active' },
        { $set: { version: panel.version, previousVersion, activatedAt: now } },
        { upsert: true, session },
      );
      activation = {
        version: panel.version,
        previousVersion,
        lenderCount: panel.lenders.length,
        productCount: productCountOf(panel),
        stored: !existing,
      };
    });
    this.active = panel;
    return activation as PanelActivation;
  }

  /** Reads the active panel from the collection; null when none was ever loaded. */
  async readActive(): Promise<Panel | null> {
    const state = await this.models.state.findById('active').lean();
    if (!state) return null;
    const stored = await this.models.versions.findById(state.version).lean();
    if (!stored) throw new Error(`the active panel version ${state.version} is missing from panel_versions`);
    // Re-validated on the way in: a hand-edited document must not reach the engine.
    return panelSchema.parse(stored.panel);
  }

  /**
   * Loads the active panel; when the collection holds none, stores `seed()` as the first version
   * (a fresh database starts with the panel shipped with the service).
   */
  async load(seed: () => Panel): Promise<Panel> {
    const stored = await this.readActive();
    if (stored) {
      this.active = stored;
      this.logger.info({ version: stored.version, lenders: stored.lenders.length }, 'lender panel loaded');
      return stored;
    }
    const panel = seed();
    const activation = await this.activate(panel, 'seed');
    this.logger.info({ ...activation }, 'lender panel seeded');
    return panel;
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

  /** Versions stored, newest load first, for the operator. */
  async listVersions() {
    return this.models.versions.find({}, { panel: 0 }).sort({ loadedAt: -1 }).lean();
  }
}
