// Writes the browser's table of public API routes from their declarations in packages/contracts:
// each operation's method, path and who may call it, as plain strings. The browser's typed client
// (packages/ui/src/app/api.ts) takes its runtime facts from this table and its types from the
// declarations themselves (type-only imports), so no schema reaches the browser bundle.
import { PUBLIC_API_ROUTES } from '@lsp/contracts';
import path from 'node:path';

export const API_ROUTES_MODULE = path.resolve(__dirname, '../../packages/ui/src/app/api-routes.generated.ts');

/** The repository's prettier width (.prettierrc): an entry longer than this is written one field a line. */
const PRINT_WIDTH = 110;

/** The module's text, laid out as prettier lays it out (the lint stage checks that it is). */
export function renderApiRoutesModule(): string {
  const entries = PUBLIC_API_ROUTES.map((route) => {
    const fields = [`method: '${route.method}'`, `path: '${route.path}'`, `auth: '${route.auth}'`];
    const oneLine = `  ${route.operationId}: { ${fields.join(', ')} },`;
    if (oneLine.length <= PRINT_WIDTH) return oneLine;
    return [`  ${route.operationId}: {`, ...fields.map((field) => `    ${field},`), '  },'].join('\n');
  });
  return [
    '// Generated from the route declarations in packages/contracts by `npm run generate:api-client`.',
    '// Do not edit: a unit test fails when this file and the declarations differ.',
    '',
    'export const API_ROUTES = {',
    ...entries,
    '} as const;',
    '',
  ].join('\n');
}
