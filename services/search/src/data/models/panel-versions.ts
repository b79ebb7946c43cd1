import { type Connection, type Model, Schema } from 'mongoose';

/** Every panel ever loaded, by version; the panel itself is stored as validated data. */
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
}

/** The single `_id: 'active'` document naming the version searches use. */
export interface PanelStateDocument {
  _id: string;
  version: string;
  previousVersion: string | null;
  activatedAt: Date;
}

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

export function panelModels(connection: Connection) {
  const versions =
    (connection.models.PanelVersion as Model<PanelVersionDocument> | undefined) ??
    connection.model<PanelVersionDocument>('PanelVersion', panelVersionSchema);
  const state =
    (connection.models.PanelState as Model<PanelStateDocument> | undefined) ??
    connection.model<PanelStateDocument>('PanelState', panelStateSchema);
  return { versions, state };
}
