// `npm run contracts:check`: today's contracts of every domain against its last release (a stage of
// `npm test`); exits 1 naming each event or route and field a reader of the release could not read.
// `npm run contracts:release [domain…]`: writes a release of the named domains (all by default) whose
// contracts changed, to packages/contracts/released/<domain>.json; a change the check refuses is
// released only with `--breaking-record docs/decisions/NNNN-….md`, the record that accepted it.
// The rules: docs/decisions/0107-released-contracts-and-what-breaks-a-reader.md.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { compareDomainContracts, describeIncompatibility } from '../packages/contracts/src/compat/compare';
import {
  CONTRACT_DOMAINS,
  type ContractDomain,
  domainContracts,
} from '../packages/contracts/src/compat/snapshot';
import {
  RELEASE_INDEX,
  ROOT,
  releaseOf,
  readRelease,
  releaseFile,
  releaseIndexOf,
  sameContracts,
  sourceCommit,
  writeJson,
} from './lib/contract-releases';

const say = (line: string) => process.stdout.write(`${line}\n`);

function domainsNamed(args: string[]): ContractDomain[] {
  const named = args.filter((a) => !a.startsWith('--') && !a.endsWith('.md'));
  for (const name of named) {
    if (!(CONTRACT_DOMAINS as readonly string[]).includes(name)) {
      throw new Error(`no domain ${name}: one of ${CONTRACT_DOMAINS.join(', ')}`);
    }
  }
  return named.length > 0 ? (named as ContractDomain[]) : [...CONTRACT_DOMAINS];
}

function check(): number {
  let problems = 0;
  for (const domain of CONTRACT_DOMAINS) {
    const released = readRelease(domain);
    if (!released) {
      say(`✖ ${domain}: never released (npm run contracts:release ${domain})`);
      problems += 1;
      continue;
    }
    const today = domainContracts(domain);
    const found = compareDomainContracts(released, today);
    for (const incompatibility of found) say(`✖ ${domain}: ${describeIncompatibility(incompatibility)}`);
    problems += found.length;
    const note = sameContracts(released, today) ? 'as released' : 'compatible changes not released yet';
    if (found.length === 0)
      say(`✓ ${domain}: release ${released.release} (${released.commit.slice(0, 7)}), ${note}`);
  }
  const index: unknown = existsSync(RELEASE_INDEX) ? JSON.parse(readFileSync(RELEASE_INDEX, 'utf8')) : null;
  if (JSON.stringify(index) !== JSON.stringify(releaseIndexOf())) {
    say(
      `✖ ${path.relative(ROOT, RELEASE_INDEX)} does not match the released files (npm run contracts:release)`,
    );
    problems += 1;
  }
  if (problems > 0) {
    say(
      `\n${problems} problem(s). A change readers of the release cannot read ships as a new event version ` +
        'or a new route beside the old (docs/decisions/0107-released-contracts-and-what-breaks-a-reader.md).',
    );
  }
  return problems > 0 ? 1 : 0;
}

async function release(args: string[]): Promise<number> {
  const flag = args.indexOf('--breaking-record');
  const record = flag >= 0 ? args[flag + 1] : undefined;
  if (flag >= 0 && (!record || !existsSync(path.join(ROOT, record)))) {
    throw new Error('--breaking-record needs the path of an existing decision record (docs/decisions/…)');
  }
  const source = sourceCommit();
  let refused = 0;
  for (const domain of domainsNamed(flag >= 0 ? args.filter((_, i) => i !== flag && i !== flag + 1) : args)) {
    const outcome = releaseOf(domain, domainContracts(domain), readRelease(domain), source, record);
    if (outcome.kind === 'unchanged') {
      say(`${domain}: unchanged since release ${outcome.previous.release}`);
      continue;
    }
    if (outcome.kind === 'refused') {
      for (const incompatibility of outcome.problems)
        say(`✖ ${domain}: ${describeIncompatibility(incompatibility)}`);
      say(`${domain}: not released: the changes above break readers of release ${outcome.previous.release}`);
      refused += 1;
      continue;
    }
    const written = outcome.release;
    await writeJson(releaseFile(domain), written);
    say(
      `${domain}: release ${written.release} from ${source.commit.slice(0, 7)}${source.uncommittedChanges ? ' and uncommitted contract changes' : ''}`,
    );
  }
  await writeJson(RELEASE_INDEX, releaseIndexOf());
  return refused > 0 ? 1 : 0;
}

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'check') return check();
  if (command === 'release') return release(rest);
  throw new Error('usage: contracts.ts check | release [domain…] [--breaking-record docs/decisions/….md]');
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: Error) => {
    process.stderr.write(`✖ ${err.message}\n`);
    process.exitCode = 1;
  },
);
