import { PANEL_AUDIT_ACTIONS, type PanelAuditEntry, type PanelImpact } from '@lsp/contracts';
import { type Connection, type Model, Schema } from 'mongoose';

/** Every panel ever stored, by version: drafts, the active one and those active before. */
export interface PanelVersionDocument {
  _id: string;
  effectiveFrom: string;
  description: string | null;
  /** sha-256 of the panel's JSON, to tell a re-load of the same file from a clash of versions. */
  checksum: string;
  lenderCount: number;
  productCount: number;
  source: string;
  panel: unknown;
  loadedAt: Date;
  /** The operator who stored it (null for the shipped seed). */
  createdBy: string | null;
  /** The last time it was made active, and by whom; null while it never was. */
  activatedAt: Date | null;
  activatedBy: string | null;
}

/** The single `_id: 'active'` document naming the version searches use. */
export interface PanelStateDocument {
  _id: string;
  version: string;
  previousVersion: string | null;
  activatedAt: Date;
}

export type PanelAuditDocument = Omit<PanelAuditEntry, 'at'> & { at: Date };

/** One impact measurement per version (the latest), with its progress and counts. */
export type PanelImpactDocument = Omit<PanelImpact, 'version' | 'startedAt' | 'finishedAt'> & {
  _id: string;
  startedAt: Date;
  finishedAt: Date | null;
  /** Saved searches with an id above this are still to do (resumable in order). */
  cursor: string | null;
};

const panelVersionSchema = new Schema<PanelVersionDocument>(
  {
    _id: { type: String, required: true },
    effectiveFrom: { type: String, required: true },
    description: { type: String, default: null },
    checksum: { type: String, required: true },
    lenderCount: { type: Number, required: true },
    productCount: { type: Number, required: true },
    source: { type: String, required: true },
    panel: { type: Schema.Types.Mixed, required: true },
    loadedAt: { type: Date, required: true },
    createdBy: { type: String, default: null },
    activatedAt: { type: Date, default: null },
    activatedBy: { type: String, default: null },
  },
  { collection: 'panel_versions', versionKey: false, strict: true, minimize: false },
);

const panelStateSchema = new Schema<PanelStateDocument>(
  {
    _id: { type: String, required: true },
    version: { type: String, required: true },
    previousVersion: { type: String, default: null },
    activatedAt: { type: Date, required: true },
  },
  { collection: 'panel_state', versionKey: false, strict: true },
);

const panelAuditSchema = new Schema<PanelAuditDocument>(
  {
    at: { type: Date, required: true, index: true },
    operator: { type: String, required: true },
    action: { type: String, enum: PANEL_AUDIT_ACTIONS, required: true },
    version: { type: String, required: true },
    detail: { type: String, required: true },
  },
  { collection: 'panel_audit', versionKey: false, strict: true },
);

const panelImpactSchema = new Schema<PanelImpactDocument>(
  {
    _id: { type: String, required: true },
    against: { type: String, default: null },
    status: { type: String, enum: ['running', 'done', 'failed'], required: true },
    total: { type: Number, required: true },
    done: { type: Number, required: true },
    gainOffer: { type: Number, required: true },
    loseOffer: { type: Number, required: true },
    betterBest: { type: Number, required: true },
    worseBest: { type: Number, required: true },
    unchanged: { type: Number, required: true },
    skipped: { type: Number, required: true },
    startedAt: { type: Date, required: true },
    finishedAt: { type: Date, default: null },
    startedBy: { type: String, required: true },
    cursor: { type: String, default: null },
  },
  { collection: 'panel_impacts', versionKey: false, strict: true },
);

function modelOf<T>(connection: Connection, name: string, schema: Schema<T>): Model<T> {
  return (connection.models[name] as Model<T> | undefined) ?? connection.model<T>(name, schema);
}

export function panelModels(connection: Connection) {
  return {
    versions: modelOf(connection, 'PanelVersion', panelVersionSchema),
    state: modelOf(connection, 'PanelState', panelStateSchema),
    audit: modelOf(connection, 'PanelAudit', panelAuditSchema),
    impacts: modelOf(connection, 'PanelImpact', panelImpactSchema),
  };
}
