import releases from './domain-releases.json';
import type { RouteOwner } from './route';

/** One domain's last release of its contracts (packages/contracts/released/<domain>.json). */
export interface DomainReleaseInfo {
  /** Grows by one with each release of the domain whose contracts changed. */
  release: number;
  /** The commit the release was taken from. */
  commit: string;
  releasedAt: string;
}

/**
 * The release of each domain's contracts this tree runs: written by `npm run contracts:release` beside
 * the released files, held to them by `npm run contracts:check`. The OpenAPI document names it per tag.
 */
export const DOMAIN_RELEASES: Readonly<Partial<Record<RouteOwner, DomainReleaseInfo>>> = releases;
