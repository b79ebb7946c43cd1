import { readFileSync } from 'node:fs';
import {
  DEFAULT_PANEL_PATH,
  DEFAULT_PANEL_SEED,
  formatPanelFileErrors,
  generatePanel,
  loadDefaultPanel,
  parsePanelFile,
  serialisePanel,
} from '../src/panel';

const shipped = readFileSync(DEFAULT_PANEL_PATH, 'utf8');
const lines = shipped.trimEnd().split('\n');
const withLine = (lineNumber: number, replacement: string) =>
  lines.map((l, i) => (i + 1 === lineNumber ? replacement : l)).join('\n');

describe('the default lender panel', () => {
  it('has at least 60 lenders with development, bridging and commercial products, and a version', () => {
    const panel = loadDefaultPanel();
    expect(panel.lenders.length).toBeGreaterThanOrEqual(60);
    expect(panel.version).toMatch(/\S/);
    const types = panel.lenders.flatMap((l) => l.products.map((p) => p.loanType));
    for (const type of ['development', 'bridging', 'commercial'] as const)
      expect(types.filter((t) => t === type).length).toBeGreaterThanOrEqual(15);
  });

  it('is the file the seeded generator writes, so it can be rebuilt exactly', () => {
    expect(serialisePanel(generatePanel(DEFAULT_PANEL_SEED))).toBe(shipped);
  });

  it('has lenders that differ in regions, caps, pricing and interest treatment', () => {
    const panel = loadDefaultPanel();
    const bridges = panel.lenders.flatMap((l) => l.products).filter((p) => p.loanType === 'bridging');
    expect(new Set(bridges.map((p) => p.interestTreatment)).size).toBe(3);
    expect(new Set(bridges.map((p) => p.maxLtvBands[0].maxRatio)).size).toBeGreaterThan(1);
    expect(new Set(bridges.map((p) => p.rateCard[0].ratePerMonth)).size).toBeGreaterThan(5);
    expect(new Set(panel.lenders.map((l) => l.regions.join())).size).toBeGreaterThan(5);
  });
});

describe('parsePanelFile', () => {
  it('reads a header line and one lender per line', () => {
    const result = parsePanelFile(shipped);
    expect(result.ok && result.panel.lenders.length).toBe(lines.length - 1);
  });

  it('reports malformed JSON with its line number', () => {
    const result = parsePanelFile(withLine(5, '{"id": "broken",'));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors).toHaveLength(1);
      expect(result.errors[0].line).toBe(5);
      expect(result.errors[0].reason).toMatch(/^not valid JSON/);
    }
  });

  it('reports a lender that breaks the schema with its line, id and the field at fault', () => {
    const lender = JSON.parse(lines[2]);
    lender.products[0].maxLoan = -5;
    const result = parsePanelFile(withLine(3, JSON.stringify(lender)));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors[0].line).toBe(3);
      expect(result.errors[0].reason).toContain(`(lender ${lender.id})`);
      expect(result.errors[0].reason).toContain('products.0.maxLoan');
    }
  });

  it('reports an unknown region or property class', () => {
    const lender = JSON.parse(lines[1]);
    lender.regions = ['Atlantis'];
    const result = parsePanelFile(withLine(2, JSON.stringify(lender)));
    expect(!result.ok && formatPanelFileErrors(result.errors)).toMatch(
      /^line 2: invalid lender .*regions\.0/,
    );
  });

  it('reports a rate card that does not reach the highest cap', () => {
    const lender = JSON.parse(lines[1]);
    const product = lender.products[0];
    product.rateCard = [product.rateCard[0]];
    product.rateCard[0].maxRatio = 0.3;
    const result = parsePanelFile(withLine(2, JSON.stringify(lender)));
    expect(!result.ok && result.errors[0].reason).toContain('the rate card stops below the highest cap');
  });

  it('reports a duplicate lender id with both lines', () => {
    const result = parsePanelFile([...lines, lines[4]].join('\n'));
    expect(!result.ok && result.errors).toEqual([
      { line: lines.length + 1, reason: `duplicate lender id ${JSON.parse(lines[4]).id} (first on line 5)` },
    ]);
  });

  it('refuses a file without a header, and an empty file', () => {
    const noHeader = parsePanelFile(lines.slice(1).join('\n'));
    expect(!noHeader.ok && noHeader.errors[0].line).toBe(1);
    expect(!noHeader.ok && noHeader.errors[0].reason).toMatch(/^the first line must be the panel header/);
    expect(parsePanelFile('\n\n')).toEqual({
      ok: false,
      errors: [{ line: 1, reason: 'the file is empty: expected a panel header line' }],
    });
  });

  it('refuses a header with no lenders', () => {
    expect(parsePanelFile(lines[0])).toEqual({
      ok: false,
      errors: [{ line: 1, reason: 'the panel has no lenders' }],
    });
  });
});
