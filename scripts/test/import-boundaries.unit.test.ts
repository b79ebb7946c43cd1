// The import-boundary lint rule (eslint-rules/boundaries.mjs) refuses what it must and lets the rest
// through, checked on source text placed where it would live in the repository.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

const REFUSED: Array<[string, string, string]> = [
  [
    'services/search/src/x.ts',
    "import { buildApp } from '../../identity/src/app';",
    'services/search may not import services/identity',
  ],
  ['services/dip/src/x.ts', "export * from '@lsp/sharing';", 'services/dip may not import services/sharing'],
  [
    'services/dip/src/x.ts',
    "const m = await import('@lsp/gateway');",
    'services/dip may not import services/gateway',
  ],
  [
    'packages/service-kit/src/x.ts',
    "import '@lsp/gateway';",
    'packages/service-kit may not import services/gateway',
  ],
  [
    'frontends/dashboard/src/x.ts',
    "import { createServiceApp } from '@lsp/service-kit';",
    'frontends/dashboard may not import packages/service-kit',
  ],
  [
    'frontends/shell/src/x.ts',
    "import '../../../services/identity/src/users';",
    'frontends/shell may not import services/identity',
  ],
  [
    'services/all-in-one/src/x.ts',
    "import { buildApp } from '../../search/src/app';",
    'services/all-in-one composes services only through their processes module',
  ],
  [
    'services/all-in-one/src/x.ts',
    "import { buildApp } from '@lsp/search';",
    'services/all-in-one composes services only through their processes module',
  ],
  [
    'services/search/src/x.ts',
    "import { startAllInOne } from '../../all-in-one/src/host';",
    'services/search may not import services/all-in-one',
  ],
  [
    'services/search/src/x.ts',
    "import { dipService } from '@lsp/dip/processes';",
    'services/search may not import services/dip',
  ],
];
const ALLOWED: Array<[string, string]> = [
  ['services/all-in-one/src/x.ts', "import { searchService } from '@lsp/search/processes';"],
  ['services/search/src/x.ts', "import { createServiceApp } from '@lsp/service-kit';\nimport './local';"],
  [
    'frontends/dashboard/src/x.ts',
    "import { Button } from '@lsp/ui';\nimport { OPS_ROLE } from '@lsp/contracts/src/common/constants';",
  ],
  ['services/search/test/x.ts', "import { startTestGateway } from '@lsp/gateway/testing';"],
  ['packages/ui/src/x.ts', "import type { SessionRecord } from '@lsp/contracts';"],
];

/**
 * Lints every case in one ESLint run with the repository's own config (in a child process: ESLint
 * loads its config with a dynamic import, which jest's sandbox does not allow).
 */
function lintCases(cases: Array<[string, string]>): string[][] {
  const script = `
    import { ESLint } from 'eslint';
    const cases = JSON.parse(process.argv[1]);
    const eslint = new ESLint({ cwd: process.cwd() });
    const out = [];
    for (const [file, code] of cases) {
      const [result] = await eslint.lintText(code, { filePath: file });
      out.push(result.messages.filter((m) => m.ruleId === 'boundaries/no-cross-boundary-imports').map((m) => m.message));
    }
    console.log(JSON.stringify(out));`;
  const run = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', script, JSON.stringify(cases.map(([f, c]) => [path.join(ROOT, f), c]))],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as string[][];
}

describe('import boundaries', () => {
  const results = lintCases([...REFUSED.map(([file, code]) => [file, code] as [string, string]), ...ALLOWED]);

  it.each(REFUSED.map((c, i) => [...c, i] as const))('refuses %s: %s', (_file, _code, expected, i) => {
    expect(results[i]).toEqual([expect.stringContaining(expected)]);
  });

  it.each(ALLOWED.map((c, i) => [...c, REFUSED.length + i] as const))(
    'lets %s through: %s',
    (_file, _code, i) => {
      expect(results[i]).toEqual([]);
    },
  );
});
