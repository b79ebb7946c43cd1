// The compatibility gate on the released contracts (scripts/contracts.ts): today's contracts against
// the release committed in packages/contracts/released/.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { dipCreatedEventSchema } from '../../packages/contracts/src/dip/events';
import { DOMAIN_RELEASES, PUBLIC_API_ROUTES } from '../../packages/contracts/src/api/index';
import { compareDomainContracts, describeIncompatibility } from '../../packages/contracts/src/compat/compare';
import { CONTRACT_DOMAINS, domainContracts } from '../../packages/contracts/src/compat/snapshot';
import { EVENT_SCHEMAS } from '../../packages/contracts/src/events/schemas';
import { ROOT, readRelease, releaseIndexOf, releaseOf } from '../lib/contract-releases';

const releasedDip = () => {
  const release = readRelease('dip');
  if (!release) throw new Error('dip has no release in packages/contracts/released');
  return release;
};

/** The dip domain's contracts with dip.created v1's payload schema replaced. */
const dipWithCreated = (
  schema: typeof dipCreatedEventSchema | ReturnType<typeof dipCreatedEventSchema.omit>,
) =>
  domainContracts('dip', {
    eventSchemas: { ...EVENT_SCHEMAS, 'dip.created': { 1: schema } },
    routes: PUBLIC_API_ROUTES,
  });

describe('the contracts check against the committed release', () => {
  it('refuses dip.created without quoteCode, naming the event and the field', () => {
    const problems = compareDomainContracts(
      releasedDip(),
      dipWithCreated(dipCreatedEventSchema.omit({ quoteCode: true })),
    );
    expect(problems.map(describeIncompatibility)).toEqual([
      expect.stringMatching(/^event dip\.created v1: quoteCode: field removed/),
    ]);
  });

  it('passes dip.created with a new optional field', () => {
    const problems = compareDomainContracts(
      releasedDip(),
      dipWithCreated(
        dipCreatedEventSchema.extend({ brokerReference: dipCreatedEventSchema.shape.quoteCode.optional() }),
      ),
    );
    expect(problems).toEqual([]);
  });

  it('has a release of every domain, and the index the OpenAPI document reads matches them', () => {
    for (const domain of CONTRACT_DOMAINS) expect(readRelease(domain)?.domain).toBe(domain);
    const index = releaseIndexOf();
    expect(Object.keys(index).sort()).toEqual([...CONTRACT_DOMAINS].sort());
    expect(DOMAIN_RELEASES).toEqual(index);
  });

  it('exits 0 on this tree and says each domain is compatible', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/contracts.ts', 'check'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(run.stdout).toMatch(/✓ dip: release \d+/);
    expect(run.status).toBe(0);
  });
});

describe('a release of a domain', () => {
  const source = {
    commit: 'c0ffee0000000000000000000000000000000000',
    uncommittedChanges: false,
    releasedAt: '2026-11-28T06:00:00.000Z',
  };
  const withoutQuoteCode = () => dipWithCreated(dipCreatedEventSchema.omit({ quoteCode: true }));

  it('is refused when it breaks readers of the last one, naming the event and field', () => {
    const outcome = releaseOf('dip', withoutQuoteCode(), releasedDip(), source);
    expect(outcome.kind).toBe('refused');
    if (outcome.kind !== 'refused') return;
    expect(outcome.problems.map(describeIncompatibility)).toEqual([
      expect.stringMatching(/^event dip\.created v1: quoteCode: field removed/),
    ]);
  });

  it('is written with a breaking change when a decision record accepts it, and names the record', () => {
    const record = 'docs/decisions/0107-released-contracts-and-what-breaks-a-reader.md';
    const outcome = releaseOf('dip', withoutQuoteCode(), releasedDip(), source, record);
    expect(outcome.kind).toBe('released');
    if (outcome.kind !== 'released') return;
    expect(outcome.release).toMatchObject({
      domain: 'dip',
      release: releasedDip().release + 1,
      commit: source.commit,
      breakingChangeRecord: record,
    });
    expect(outcome.release.events['dip.created']!['1']!.schema.required).not.toContain('quoteCode');
  });

  it('is the next number for a compatible change, and nothing when the contracts are as released', () => {
    const added = dipWithCreated(
      dipCreatedEventSchema.extend({ brokerReference: dipCreatedEventSchema.shape.quoteCode.optional() }),
    );
    const outcome = releaseOf('dip', added, releasedDip(), source);
    expect(outcome.kind === 'released' && outcome.release.release).toBe(releasedDip().release + 1);
    expect(outcome.kind === 'released' && 'breakingChangeRecord' in outcome.release).toBe(false);
    const same = releaseOf('dip', releasedDip(), releasedDip(), source);
    expect(same.kind).toBe('unchanged');
  });
});

describe('the consumers of the domains’ events', () => {
  it('each name the payload version they read, so a version published beside it passes them by', () => {
    const unversioned: string[] = [];
    for (const service of readdirSync(path.join(ROOT, 'services'))) {
      const dir = path.join(ROOT, 'services', service, 'src/events');
      let files: string[] = [];
      try {
        files = readdirSync(dir).filter((file) => file.endsWith('.ts') && file !== 'published.ts');
      } catch {
        continue; // no events of its own
      }
      for (const file of files) {
        const source = readFileSync(path.join(dir, file), 'utf8');
        const subscriptions = source.split('bus.subscribe({').slice(1);
        subscriptions.forEach((block, i) => {
          const declaration = block.slice(0, block.indexOf('\n  });'));
          if (!/\breadsVersion:/.test(declaration))
            unversioned.push(`services/${service}/src/events/${file} #${i + 1}`);
        });
      }
    }
    expect(unversioned).toEqual([]);
  });
});
