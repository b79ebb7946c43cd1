import type { PanelImpact } from '@lsp/contracts';
import type { Connection } from 'mongoose';
import { type PanelImpactDocument, panelModels } from './models/panel-versions';

export type ImpactCounts = Pick<
  PanelImpact,
  'gainOffer' | 'loseOffer' | 'betterBest' | 'worseBest' | 'unchanged' | 'skipped'
>;

export const NO_COUNTS: ImpactCounts = {
  gainOffer: 0,
  loseOffer: 0,
  betterBest: 0,
  worseBest: 0,
  unchanged: 0,
  skipped: 0,
};

/** The latest impact measurement of each panel version, kept as it progresses batch by batch. */
export class PanelImpactRepository {
  private readonly impacts;

  constructor(connection: Connection) {
    this.impacts = panelModels(connection).impacts;
  }

  async begin(
    version: string,
    against: string | null,
    total: number,
    startedBy: string,
  ): Promise<PanelImpact> {
    const doc: PanelImpactDocument = {
      _id: version,
      against,
      status: 'running',
      total,
      done: 0,
      ...NO_COUNTS,
      startedAt: new Date(),
      finishedAt: null,
      startedBy,
      cursor: null,
    };
    await this.impacts.replaceOne({ _id: version }, doc, { upsert: true });
    return viewOf(doc);
  }

  async find(version: string): Promise<PanelImpact | null> {
    const doc = await this.impacts.findById(version).lean();
    return doc ? viewOf(doc) : null;
  }

  /** Adds one batch's counts and moves the cursor past it. */
  async recordBatch(version: string, counts: ImpactCounts, done: number, cursor: string): Promise<void> {
    await this.impacts.updateOne({ _id: version }, { $inc: { ...counts, done }, $set: { cursor } });
  }

  async finish(version: string, status: 'done' | 'failed'): Promise<void> {
    await this.impacts.updateOne({ _id: version }, { $set: { status, finishedAt: new Date() } });
  }
}

function viewOf(doc: PanelImpactDocument): PanelImpact {
  const { _id, cursor: _cursor, startedAt, finishedAt, ...rest } = doc;
  return {
    ...rest,
    version: _id,
    // Searches saved while it runs can push `done` past the count taken at the start.
    total: Math.max(doc.total, doc.done),
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt?.toISOString() ?? null,
  };
}
