import { newPanelVersionSchema } from '@lsp/contracts';
import { z } from 'zod';
import { lenderSchema, panelHeaderSchema, panelSchema, type Panel } from './schema';

/**
 * The panel file is JSON Lines: the first non-blank line is the header (kind, version, effective
 * date), then one lender per line. One lender per line keeps a bad entry's line number exact, lets an
 * operator diff a new panel lender by lender, and lets a spreadsheet export write it line by line.
 */
export interface PanelFileError {
  line: number;
  reason: string;
}

export type PanelFileResult = { ok: true; panel: Panel } | { ok: false; errors: PanelFileError[] };

const MAX_ERRORS = 50;

/** A new file's header: its version becomes a URL segment, so only the characters one takes as is. */
const newPanelHeaderSchema = panelHeaderSchema.extend({ version: newPanelVersionSchema });

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

export function parsePanelFile(text: string): PanelFileResult {
  const errors: PanelFileError[] = [];
  const lines = text.split(/\r?\n/);
  let header: z.output<typeof panelHeaderSchema> | null = null;
  const lenders: { line: number; value: z.output<typeof lenderSchema> }[] = [];
  const seenIds = new Map<string, number>();

  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '' || errors.length >= MAX_ERRORS) return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      errors.push({ line, reason: `not valid JSON (${(error as Error).message})` });
      return;
    }
    if (header === null && lenders.length === 0 && !errors.length) {
      const parsed = newPanelHeaderSchema.safeParse(json);
      if (!parsed.success) {
        errors.push({
          line,
          reason: `the first line must be the panel header: ${describeIssues(parsed.error)}`,
        });
        header = { kind: 'lender-panel', version: 'invalid', effectiveFrom: '1970-01-01' };
      } else {
        header = parsed.data;
      }
      return;
    }
    const parsed = lenderSchema.safeParse(json);
    if (!parsed.success) {
      const id =
        typeof (json as { id?: unknown })?.id === 'string' ? ` (lender ${(json as { id: string }).id})` : '';
      errors.push({ line, reason: `invalid lender${id}: ${describeIssues(parsed.error)}` });
      return;
    }
    const firstLine = seenIds.get(parsed.data.id);
    if (firstLine !== undefined) {
      errors.push({ line, reason: `duplicate lender id ${parsed.data.id} (first on line ${firstLine})` });
      return;
    }
    seenIds.set(parsed.data.id, line);
    lenders.push({ line, value: parsed.data });
  });

  if (header === null)
    return { ok: false, errors: [{ line: 1, reason: 'the file is empty: expected a panel header line' }] };
  if (errors.length) return { ok: false, errors };
  if (lenders.length === 0)
    return { ok: false, errors: [{ line: lines.length, reason: 'the panel has no lenders' }] };
  const panel = panelSchema.safeParse({ ...(header as object), lenders: lenders.map((l) => l.value) });
  if (!panel.success) return { ok: false, errors: [{ line: 1, reason: describeIssues(panel.error) }] };
  return { ok: true, panel: panel.data };
}

/** The panel back as JSON Lines, the format parsePanelFile reads. */
export function serialisePanel(panel: Panel): string {
  const { lenders, ...header } = panel;
  return [JSON.stringify(header), ...lenders.map((lender) => JSON.stringify(lender))].join('\n') + '\n';
}

export function formatPanelFileErrors(errors: readonly PanelFileError[]): string {
  return errors.map((e) => `line ${e.line}: ${e.reason}`).join('\n');
}
