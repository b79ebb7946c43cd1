import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { DEFAULT_PANEL_SEED, generatePanel } from './generate-panel';
import { DEFAULT_PANEL_PATH } from './load-panel';
import { parsePanelFile, serialisePanel, formatPanelFileErrors } from './parse-panel-file';

/**
 * Regenerates data/lender-panel.jsonl from the seed (npx tsx services/search/src/panel/write-default-panel.ts [seed])
 * and checks it parses before writing, so the shipped file is always valid.
 */
const seed = process.argv[2] ? Number(process.argv[2]) : DEFAULT_PANEL_SEED;
const text = serialisePanel(generatePanel(seed));
const check = parsePanelFile(text);
if (!check.ok) {
  process.stderr.write(`generated panel is invalid:\n${formatPanelFileErrors(check.errors)}\n`);
  process.exit(1);
}
mkdirSync(dirname(DEFAULT_PANEL_PATH), { recursive: true });
writeFileSync(DEFAULT_PANEL_PATH, text);
process.stdout.write(
  `wrote ${check.panel.lenders.length} lenders (version ${check.panel.version}) to ${DEFAULT_PANEL_PATH}\n`,
);
