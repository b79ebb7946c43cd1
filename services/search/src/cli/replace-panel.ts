import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import { Outbox, connectMongo, createLogger } from '@lsp/service-kit';
import { z } from 'zod';
import { PanelStore, PanelVersionClashError } from '../data/panel-store';
import { parsePanelFile } from '../panel';

/**
 * Replaces the lender panel from a JSON Lines file:
 *   npm run replace-panel -w @lsp/search -- path/to/panel.jsonl [--dry-run]
 * The file is validated in full before the database is touched; a bad file is refused with each
 * line and reason. It is the Lender panel page's code path (store, then activate with panel.activated),
 * with the operator named after the machine's user.
 */

export interface ReplacePanelOutcome {
  exitCode: number;
  lines: string[];
}

type Store = Pick<PanelStore, 'activate'>;

export async function replacePanelFromFile(
  file: string,
  store: Store | (() => Promise<Store>),
  options: { dryRun?: boolean } = {},
): Promise<ReplacePanelOutcome> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return { exitCode: 1, lines: [`Cannot read ${file}: ${(err as Error).message}`] };
  }
  const parsed = parsePanelFile(text);
  if (!parsed.ok) {
    return {
      exitCode: 1,
      lines: [
        `Refused: ${file} is not a valid lender panel.`,
        ...parsed.errors.map((e) => `${file}:${e.line}: ${e.reason}`),
      ],
    };
  }
  const { panel } = parsed;
  const products = panel.lenders.reduce((sum, lender) => sum + lender.products.length, 0);
  if (options.dryRun) {
    return {
      exitCode: 0,
      lines: [
        `${file} is valid: panel ${panel.version}, ${panel.lenders.length} lenders, ${products} products (dry run, nothing stored)`,
      ],
    };
  }
  try {
    const target = typeof store === 'function' ? await store() : store;
    const activation = await target.activate(panel, {
      source: `command line: ${resolve(file)}`,
      operator: `command line (${userInfo().username})`,
    });
    const previous = activation.previousVersion ? `; previous version ${activation.previousVersion}` : '';
    const how = activation.stored ? 'stored and activated' : 'already stored; activated again';
    return {
      exitCode: 0,
      lines: [
        `Lender panel ${panel.version} ${how}: ${activation.lenderCount} lenders, ${activation.productCount} products${previous}.`,
      ],
    };
  } catch (err) {
    if (err instanceof PanelVersionClashError) return { exitCode: 1, lines: [`Refused: ${err.message}`] };
    throw err;
  }
}

const cliEnvSchema = z.object({
  MONGO_URL: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// URL')
    .default('mongodb://127.0.0.1:27017/?replicaSet=rs0'),
  SEARCH_DB_NAME: z.string().min(1).default('search'),
});

async function main(argv: string[]): Promise<number> {
  const dryRun = argv.includes('--dry-run');
  const files = argv.filter((arg) => !arg.startsWith('--'));
  if (files.length !== 1) {
    process.stderr.write('Usage: npm run replace-panel -w @lsp/search -- <panel.jsonl> [--dry-run]\n');
    return 2;
  }
  const env = cliEnvSchema.parse(process.env);
  const logger = createLogger('replace-panel', 'warn');
  let close: (() => Promise<void>) | undefined;
  // npm runs workspace scripts from the workspace folder; a path is meant from where the operator typed it.
  const file = resolve(process.env.INIT_CWD ?? process.cwd(), files[0]);
  const outcome = await replacePanelFromFile(
    file,
    async () => {
      const connection = await connectMongo(env.MONGO_URL, env.SEARCH_DB_NAME, logger);
      close = () => connection.close();
      // The activation's panel.activated goes out through the service's outbox: a running search
      // instance publishes it (its relay's poll) and every instance switches on it.
      return new PanelStore(connection, logger, await Outbox.open(connection));
    },
    { dryRun },
  );
  await close?.();
  (outcome.exitCode === 0 ? process.stdout : process.stderr).write(`${outcome.lines.join('\n')}\n`);
  return outcome.exitCode;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`replace-panel failed: ${(err as Error).message}\n`);
      process.exit(1);
    },
  );
}
