// The released contracts of each domain, kept in packages/contracts/released/<domain>.json, and the
// small index of them the OpenAPI document reads (packages/contracts/src/api/domain-releases.json).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  CONTRACT_DOMAINS,
  type ContractDomain,
  type DomainContracts,
  type DomainRelease,
  type DomainReleaseInfo,
  contractText,
} from '../../packages/contracts/src/compat/snapshot';
import { type Incompatibility, compareDomainContracts } from '../../packages/contracts/src/compat/compare';

export const ROOT = path.resolve(__dirname, '../..');
export const RELEASED_DIR = path.join(ROOT, 'packages/contracts/released');
export const RELEASE_INDEX = path.join(ROOT, 'packages/contracts/src/api/domain-releases.json');

export const releaseFile = (domain: ContractDomain, dir = RELEASED_DIR) => path.join(dir, `${domain}.json`);

export function readRelease(domain: ContractDomain, dir = RELEASED_DIR): DomainRelease | null {
  const file = releaseFile(domain, dir);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as DomainRelease) : null;
}

export const releaseInfo = (release: DomainRelease): DomainReleaseInfo => ({
  release: release.release,
  commit: release.commit,
  releasedAt: release.releasedAt,
});

/** The index the OpenAPI document reads, as it should be for the released files. */
export function releaseIndexOf(dir = RELEASED_DIR): Partial<Record<ContractDomain, DomainReleaseInfo>> {
  const index: Partial<Record<ContractDomain, DomainReleaseInfo>> = {};
  for (const domain of CONTRACT_DOMAINS) {
    const release = readRelease(domain, dir);
    if (release) index[domain] = releaseInfo(release);
  }
  return index;
}

const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

export interface ReleaseSource {
  commit: string;
  uncommittedChanges: boolean;
  releasedAt: string;
}

/** The commit a release is taken from, whether the contract sources differ from it, and now. */
export function sourceCommit(): ReleaseSource {
  return {
    commit: git('rev-parse', 'HEAD'),
    releasedAt: new Date().toISOString(),
    uncommittedChanges: git('status', '--porcelain', '--', 'packages/contracts/src').length > 0,
  };
}

/** A new release of a domain from its contracts today: the previous number plus one. */
export function newRelease(
  domain: ContractDomain,
  today: DomainContracts,
  previous: DomainRelease | null,
  source: ReleaseSource,
  breakingChangeRecord?: string,
): DomainRelease {
  return {
    domain,
    release: (previous?.release ?? 0) + 1,
    commit: source.commit,
    releasedAt: source.releasedAt,
    uncommittedChanges: source.uncommittedChanges,
    ...(breakingChangeRecord ? { breakingChangeRecord } : {}),
    events: today.events,
    routes: today.routes,
  };
}

export const sameContracts = (a: DomainContracts, b: DomainContracts) => contractText(a) === contractText(b);

export type ReleaseOutcome =
  | { kind: 'unchanged'; previous: DomainRelease }
  | { kind: 'refused'; previous: DomainRelease; problems: Incompatibility[] }
  | { kind: 'released'; release: DomainRelease };

/**
 * What releasing a domain's contracts today does: nothing when they are as released; a refusal when
 * they break readers of the last release and no decision record accepts it; else the next release
 * (naming the record when it accepted a break).
 */
export function releaseOf(
  domain: ContractDomain,
  today: DomainContracts,
  previous: DomainRelease | null,
  source: ReleaseSource,
  breakingChangeRecord?: string,
): ReleaseOutcome {
  if (previous && sameContracts(previous, today)) return { kind: 'unchanged', previous };
  const problems = previous ? compareDomainContracts(previous, today) : [];
  if (previous && problems.length > 0 && !breakingChangeRecord)
    return { kind: 'refused', previous, problems };
  const accepted = problems.length > 0 ? breakingChangeRecord : undefined;
  return { kind: 'released', release: newRelease(domain, today, previous, source, accepted) };
}

/** Writes JSON as the repository's prettier formats it, so the lint stage's check passes on it. */
export async function writeJson(file: string, value: unknown): Promise<void> {
  // Loaded only here: the readers of the releases (tests among them) never need it.
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(file)) ?? {};
  writeFileSync(file, await prettier.format(JSON.stringify(value), { ...options, filepath: file }));
}
