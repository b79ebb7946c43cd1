import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ZodType } from 'zod';

const ROOT = path.resolve(__dirname, '../../..');

/** One payload a producer of the last release could have written (packages/contracts/released/). */
export interface ReleasedEventExample {
  type: string;
  version: number;
  /** `full`: every optional field present; `minimal`: only the required ones, null where allowed. */
  shape: 'full' | 'minimal';
  /** The producing domain's release the example comes from. */
  release: number;
  payload: unknown;
}

interface ReleaseFile {
  release: number;
  events: Record<string, Record<string, { examples: Record<'full' | 'minimal', unknown> }>>;
}

/**
 * The released example payloads of every event type a service consumes, every version and both
 * shapes. The consumed types are read from the service's src/events/ as its README's events block is
 * (scripts/readme-events.mjs), so a new subscription is covered without a list to keep. A consumed type
 * missing from its domain's release throws: release the producer's contracts first.
 */
export async function releasedExamplesConsumedBy(service: string): Promise<ReleasedEventExample[]> {
  const { consumedEventTypes } = (await import(path.join(ROOT, 'scripts/readme-events.mjs'))) as {
    consumedEventTypes(root: string, service: string): Array<{ type: string; domain: string }>;
  };
  const consumed = consumedEventTypes(ROOT, service);
  const releases = new Map<string, ReleaseFile>();
  const out: ReleasedEventExample[] = [];
  for (const { type, domain } of consumed) {
    if (!releases.has(domain)) {
      const file = path.join(ROOT, 'packages/contracts/released', `${domain}.json`);
      releases.set(domain, JSON.parse(readFileSync(file, 'utf8')) as ReleaseFile);
    }
    const release = releases.get(domain)!;
    const versions = release.events[type];
    if (!versions) throw new Error(`${type} is consumed by ${service} but not in ${domain}'s release`);
    for (const [version, event] of Object.entries(versions)) {
      for (const shape of ['full', 'minimal'] as const) {
        out.push({
          type,
          version: Number(version),
          shape,
          release: release.release,
          payload: event.examples[shape],
        });
      }
    }
  }
  return out;
}

/**
 * Each released example a service consumes that today's payload schema of its type and version
 * refuses, as `type vN (shape, release R): path: message`; empty when the service reads them all.
 */
export async function releasedExamplesRefusedBy(
  service: string,
  schemaOf: (type: string, version: number) => ZodType | undefined,
): Promise<string[]> {
  const refused: string[] = [];
  for (const example of await releasedExamplesConsumedBy(service)) {
    const label = `${example.type} v${example.version} (${example.shape}, release ${example.release})`;
    const schema = schemaOf(example.type, example.version);
    if (!schema) {
      refused.push(`${label}: no schema of this version today`);
      continue;
    }
    const result = schema.safeParse(example.payload);
    if (!result.success) {
      const issue = result.error.issues[0];
      refused.push(`${label}: ${issue?.path.join('.') || '(payload)'}: ${issue?.message}`);
    }
  }
  return refused;
}
