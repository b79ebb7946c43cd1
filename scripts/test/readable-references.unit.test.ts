// The lint rule eslint-rules/readable-references.mjs refuses spec-section and issue-number references
// in comments and test titles, and lets rules stated in words through.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

function lintMessages(file: string, source: string): string[] {
  const result = spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/eslint/bin/eslint.js'),
      '--stdin',
      '--stdin-filename',
      path.join(ROOT, file),
      '--format',
      'json',
    ],
    { cwd: ROOT, input: source, encoding: 'utf8' },
  );
  const [report] = JSON.parse(result.stdout) as Array<{ messages: Array<{ ruleId: string | null }> }>;
  return report!.messages
    .filter((m) => m.ruleId === 'readable-references/no-unopenable-references')
    .map((m) => m.ruleId!);
}

const REFUSED: Array<[string, string]> = [
  ['services/search/src/x.ts', '// Total build cost (spec §5 derived values).\nexport const a = 1;\n'],
  ['services/search/src/x.ts', '/** The check at submit (§5). */\nexport const a = 1;\n'],
  ['services/dip/test/x.unit.test.ts', "it('keeps the link (issue 24 item 4)', () => {});\n"],
  ['services/dip/test/x.unit.test.ts', "describe.each([1])('Finding 8: %s', () => {});\n"],
  ['e2e/x.spec.ts', 'test.describe(`Issue #13: sessions`, () => {});\n'],
];

const ALLOWED: Array<[string, string]> = [
  ['services/search/src/x.ts', '// Total build cost = build cost + contingency.\nexport const a = 1;\n'],
  [
    'services/search/src/x.ts',
    '// Why: docs/decisions/0083-read-your-own-writes-across-services.md\nexport const a = 1;\n',
  ],
  [
    'services/dip/test/x.unit.test.ts',
    "it('keeps a recipient shared by email when the link is regenerated', () => {});\n",
  ],
];

describe('the readable-references lint rule', () => {
  it.each(REFUSED)('refuses %s: %s', (file, source) => {
    expect(lintMessages(file, source)).toHaveLength(1);
  });

  it.each(ALLOWED)('lets through %s: %s', (file, source) => {
    expect(lintMessages(file, source)).toEqual([]);
  });
});
