import { readFileSync } from 'node:fs';
import path from 'node:path';

const BUNDLE_BUDGETS_MODULE = '../lib/bundle-budgets.mjs';

interface BuildBudgets {
  scriptGzipKb: number;
  stylesheetGzipKb: number;
  entryGzipKb: Record<string, number>;
}
interface OverBudget {
  name: string;
  gzipKb: number;
  budgetKb: number;
}
interface BundleBudgetsModule {
  readBudgets(): { build: BuildBudgets; measured: Record<string, number> };
  budgetOf(name: string, build: BuildBudgets): number | null;
  overBudget(files: Array<{ name: string; gzipBytes: number }>, build: BuildBudgets): OverBudget[];
  describeOverBudget(over: OverBudget[]): string[];
}

let budgets: BundleBudgetsModule;
beforeAll(async () => {
  budgets = (await import(BUNDLE_BUDGETS_MODULE)) as BundleBudgetsModule;
});

const build = {
  scriptGzipKb: 70,
  stylesheetGzipKb: 15,
  entryGzipKb: { 'main.js': 32, 'remoteEntry.js': 32 },
};
const kb = (n: number) => Math.round(n * 1024);

describe('bundle budgets', () => {
  it('gives entry files their own budget, then any script or stylesheet the general one', () => {
    expect(budgets.budgetOf('main.js', build)).toBe(32);
    expect(budgets.budgetOf('remoteEntry.js', build)).toBe(32);
    expect(budgets.budgetOf('873.88aa0ab02f.js', build)).toBe(70);
    expect(budgets.budgetOf('271.d3ada04069.css', build)).toBe(15);
    expect(budgets.budgetOf('mf-manifest.json', build)).toBeNull();
  });

  it('names each file over its budget, and none at or under it', () => {
    const over = budgets.overBudget(
      [
        { name: 'main.js', gzipBytes: kb(32) },
        { name: 'remoteEntry.js', gzipBytes: kb(32) + 1 },
        { name: '873.88aa0ab02f.js', gzipBytes: kb(64) },
        { name: '233.de94fb1b65.js', gzipBytes: kb(71.5) },
        { name: '271.d3ada04069.css', gzipBytes: kb(16) },
        { name: 'mf-manifest.json', gzipBytes: kb(500) },
      ],
      build,
    );
    expect(over.map((o) => o.name)).toEqual(['remoteEntry.js', '233.de94fb1b65.js', '271.d3ada04069.css']);
    expect(budgets.describeOverBudget(over)).toEqual([
      'remoteEntry.js is 32.0 KB gzip, over its budget of 32 KB',
      '233.de94fb1b65.js is 71.5 KB gzip, over its budget of 70 KB',
      '271.d3ada04069.css is 16.0 KB gzip, over its budget of 15 KB',
    ]);
  });

  it('are the numbers docs/performance.md states', () => {
    const doc = readFileSync(path.join(__dirname, '../../docs/performance.md'), 'utf8');
    const { build: b, measured: m } = budgets.readBudgets();
    const stated = (what: string) => {
      const row = doc.split('\n').find((line) => line.startsWith(`| ${what} `));
      expect(row).toBeDefined();
      return Number(/\|\s*<\s*([\d.]+) KB\s*\|\s*$/.exec(row!)?.[1]);
    };
    expect(stated('shell, first visit')).toBe(m.shellFirstVisitGzipKb);
    expect(stated('dashboard remote, first load')).toBe(m.dashboardFirstLoadGzipKb);
    expect(stated('any built script')).toBe(b.scriptGzipKb);
    expect(stated('any built stylesheet')).toBe(b.stylesheetGzipKb);
    expect(stated('`main.js`, each app')).toBe(b.entryGzipKb['main.js']);
    expect(stated('`remoteEntry.js`, each remote')).toBe(b.entryGzipKb['remoteEntry.js']);
  });
});
