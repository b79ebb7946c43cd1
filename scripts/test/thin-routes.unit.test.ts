// Route files stay thin in every service: a file in services/*/src/http/ registers its routes, reads
// the request and hands off to the service's use cases (src/use-cases/), which reach the rules, the
// data and the events. Such a file imports, of its own service, only src/use-cases/, its config and
// other http/ files; no data/ folder and no database or Redis driver (not even for a type: the deps it
// takes are typed by the use cases it calls); and it stays under a length at which logic could hide in
// its closures.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** The most lines a route file may have. */
const MAX_ROUTE_FILE_LINES = 120;

/** Drivers a route file never uses directly. */
const DRIVER = /^(mongodb|mongoose|ioredis)(\/|$)/;

/** A relative import of a data/ folder or of a file in one. */
const DATA_FOLDER = /^\.{1,2}\/(.*\/)?data(\/|$)/;

/** What a route file may import of its own service outside src/http/: the use cases and the config. */
const OWN_SERVICE_ALLOWED = /^\.\.\/(use-cases(\/|$)|config$)/;

/** The module each import, export-from, dynamic import and require names. */
function importedModules(source: string): string[] {
  const pattern = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;
  return [...source.matchAll(pattern)].map((match) => match[1]!);
}

function lineCount(source: string): number {
  const lines = source.split('\n').length;
  return source.endsWith('\n') ? lines - 1 : lines;
}

/** What keeps a route file from being thin, one line each; none when it is. */
export function thinRouteProblems(source: string): string[] {
  const problems: string[] = [];
  for (const module of importedModules(source)) {
    if (DATA_FOLDER.test(module)) problems.push(`imports ${module}: data access belongs to the use cases`);
    if (DRIVER.test(module)) problems.push(`imports ${module}: data access belongs to the use cases`);
    else if (module.startsWith('../') && !DATA_FOLDER.test(module) && !OWN_SERVICE_ALLOWED.test(module)) {
      problems.push(`imports ${module}: a route hands off to src/use-cases/`);
    }
  }
  const lines = lineCount(source);
  if (lines > MAX_ROUTE_FILE_LINES) {
    problems.push(`${lines} lines, over ${MAX_ROUTE_FILE_LINES}: move the logic to the use cases`);
  }
  return problems;
}

/** Every services/<name>/src/http/**.ts file, relative to the repository. */
function routeFiles(): string[] {
  const servicesDir = path.join(ROOT, 'services');
  return readdirSync(servicesDir).flatMap((service) => {
    const httpDir = path.join(servicesDir, service, 'src', 'http');
    let entries: string[];
    try {
      entries = readdirSync(httpDir, { recursive: true, encoding: 'utf8' });
    } catch {
      return [];
    }
    return entries
      .filter((entry) => entry.endsWith('.ts'))
      .map((entry) => path.relative(ROOT, path.join(httpDir, entry)).split(path.sep).join('/'))
      .sort();
  });
}

describe('thin route files', () => {
  it('finds the route files of the services', () => {
    const files = routeFiles();
    expect(files).toContain('services/search/src/http/searches.ts');
    expect(files).toContain('services/identity/src/http/sessions.ts');
  });

  it('every services/*/src/http file imports only its use cases, no data/ folder or driver, and is at most 120 lines', () => {
    const problems = routeFiles().flatMap((file) =>
      thinRouteProblems(readFileSync(path.join(ROOT, file), 'utf8')).map((problem) => `${file}: ${problem}`),
    );
    expect(problems).toEqual([]);
  });

  it('every service with routes has its use cases in src/use-cases/', () => {
    const services = [...new Set(routeFiles().map((file) => file.split('/')[1]!))];
    expect(services.length).toBeGreaterThanOrEqual(5);
    const without = services.filter(
      (service) => !existsSync(path.join(ROOT, 'services', service, 'src/use-cases')),
    );
    expect(without).toEqual([]);
  });

  describe('the check itself', () => {
    const handOff = [
      "import { declareRoute } from '@lsp/service-kit';",
      "import type { FastifyInstance } from 'fastify';",
      "import { type DealDeps, getDeal } from '../use-cases/deals';",
      "import type { DealsConfig } from '../config';",
      "import { withRetryAfter } from './retry-after';",
      '',
      'export function registerDealRoutes(app: FastifyInstance, deps: DealDeps) {',
      "  declareRoute(app, 'getDeal', async (request) => getDeal(deps, request.params.id));",
      '}',
      '',
    ].join('\n');

    it('lets a file that hands off through', () => {
      expect(thinRouteProblems(handOff)).toEqual([]);
    });

    it.each([
      ["import { DealRepository } from '../data/deals';", '../data/deals'],
      ["import type { DealRepository } from '../data/deals';", '../data/deals'],
      ["import { dealModel } from '../data';", '../data'],
      ["import { dealModel } from '../../src/data/models/deals';", '../../src/data/models/deals'],
      ["export { dealModel } from './data/deals';", './data/deals'],
      ["const { dealModel } = await import('../data/deals');", '../data/deals'],
      ["import type { Connection } from 'mongoose';", 'mongoose'],
      ["import { ObjectId } from 'mongodb';", 'mongodb'],
      ["import type { Redis } from 'ioredis';", 'ioredis'],
      ['import {\n  type Collection,\n  ObjectId,\n} from "mongodb";', 'mongodb'],
    ])('refuses %p, naming %s', (line, module) => {
      expect(thinRouteProblems(`${line}\n${handOff}`)).toEqual([
        `imports ${module}: data access belongs to the use cases`,
      ]);
    });

    it.each([
      ["import { quoteCodeFor } from '../domain/quote-code';", '../domain/quote-code'],
      ["import { dealCreatedEvent } from '../events/published';", '../events/published'],
      ["import { something } from '../../../other/src/x';", '../../../other/src/x'],
    ])('refuses %p, naming %s, as logic that belongs to a use case', (line, module) => {
      expect(thinRouteProblems(`${line}\n${handOff}`)).toEqual([
        `imports ${module}: a route hands off to src/use-cases/`,
      ]);
    });

    it('does not take a folder that only ends in "data" for a data/ folder', () => {
      expect(thinRouteProblems(`import { x } from '../use-cases/metadata';\n${handOff}`)).toEqual([]);
      expect(thinRouteProblems(`import { x } from '@lsp/contracts';\n${handOff}`)).toEqual([]);
    });

    it('refuses a file over 120 lines and lets one of exactly 120 through', () => {
      const padded = (lines: number) => `${handOff}${'// …\n'.repeat(lines - lineCount(handOff))}`;
      expect(lineCount(padded(120))).toBe(120);
      expect(thinRouteProblems(padded(120))).toEqual([]);
      expect(thinRouteProblems(padded(121))).toEqual([
        '121 lines, over 120: move the logic to the use cases',
      ]);
    });
  });
});
