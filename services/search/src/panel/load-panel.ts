import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatPanelFileErrors, parsePanelFile } from './parse-panel-file';
import type { Panel } from './schema';

/** The panel shipped with the service, used to seed its collection on first start and in tests. */
export const DEFAULT_PANEL_PATH = join(__dirname, 'data', 'lender-panel.jsonl');

export class PanelFileInvalidError extends Error {
  constructor(
    readonly path: string,
    readonly errors: ReturnType<typeof parsePanelFile> extends infer R
      ? R extends { ok: false; errors: infer E }
        ? E
        : never
      : never,
  ) {
    super(`Panel file ${path} is invalid:\n${formatPanelFileErrors(errors)}`);
    this.name = 'PanelFileInvalidError';
  }
}

export function loadPanelFile(path: string): Panel {
  const result = parsePanelFile(readFileSync(path, 'utf8'));
  if (!result.ok) throw new PanelFileInvalidError(path, result.errors);
  return result.panel;
}

export function loadDefaultPanel(): Panel {
  return loadPanelFile(DEFAULT_PANEL_PATH);
}
