// The repository's import boundaries, checked by lint (docs/decisions/0073-import-boundaries-are-lint-rules-the-test-gateway-belongs.md):
// - a service's code never imports another service: services talk through events or the owner's API;
// - a package never imports a service: packages are what services are built from;
// - a frontend never imports server code: no service, and none of the server-only packages.
// Tests may compose services (an integration test runs the real gateway in front of a service), so
// the rules apply to what ships: each workspace's src and bin.
// One shipped place composes services: the all-in-one host (services/all-in-one), which runs every
// service in one process, each built by its own definition (`@lsp/<service>/processes`). It may import
// those, and nothing else of a service; no service may import it.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const GROUPS = ['services', 'packages', 'frontends'];
const SHIPPED_PARTS = new Set(['src', 'bin']);
/** The one composer of services, and the one module of each service it may import. */
const HOST = 'all-in-one';
const COMPOSABLE_MODULE = /^@lsp\/[^/]+\/processes$/;

/** Packages that only make sense on a server: a browser bundle must not pull them in. */
const SERVER_ONLY_PACKAGES = new Set(['service-kit', 'embedded-mongo', 'testing']);

/** '@lsp/contracts' → 'packages/contracts', read from each workspace's package.json. */
const WORKSPACE_BY_NAME = new Map();
for (const group of GROUPS) {
  for (const dir of readdirSync(path.join(ROOT, group), { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    try {
      const { name } = JSON.parse(readFileSync(path.join(ROOT, group, dir.name, 'package.json'), 'utf8'));
      if (name) WORKSPACE_BY_NAME.set(name, `${group}/${dir.name}`);
    } catch {
      // A folder without a package.json is not a workspace.
    }
  }
}

/** Which workspace a file belongs to, and which part of it ('src', 'test', ...). */
function areaOf(file) {
  const [group, name, part] = path.relative(ROOT, file).split(path.sep);
  return GROUPS.includes(group) && name && part ? { group, name, part } : null;
}

function targetOf(specifier, fromFile) {
  if (specifier.startsWith('.')) return areaOf(path.resolve(path.dirname(fromFile), specifier));
  const match = /^(@lsp\/[^/]+)(\/.*)?$/.exec(specifier);
  const dir = match && WORKSPACE_BY_NAME.get(match[1]);
  if (!dir) return null;
  const [group, name] = dir.split('/');
  return { group, name, part: 'src' };
}

function violation(from, to, specifier) {
  if (!to || (from.group === to.group && from.name === to.name)) return null;
  if (from.group === 'services' && from.name === HOST && to.group === 'services') {
    return COMPOSABLE_MODULE.test(specifier)
      ? null
      : `services/${HOST} composes services only through their processes module (@lsp/${to.name}/processes), not ${specifier}`;
  }
  if (from.group === 'services' && to.group === 'services')
    return `services/${from.name} may not import services/${to.name}: services talk through events or the owner's API`;
  if (from.group === 'packages' && to.group === 'services')
    return `packages/${from.name} may not import services/${to.name}: packages never depend on a service`;
  if (from.group === 'frontends' && to.group === 'services')
    return `frontends/${from.name} may not import services/${to.name}: the browser talks to services over HTTP`;
  if (from.group === 'frontends' && to.group === 'packages' && SERVER_ONLY_PACKAGES.has(to.name))
    return `frontends/${from.name} may not import packages/${to.name}: it is server code`;
  return null;
}

const noCrossBoundaryImports = {
  meta: {
    type: 'problem',
    docs: { description: 'Keeps services, packages and frontends within their import boundaries' },
    schema: [],
  },
  create(context) {
    const from = areaOf(context.filename);
    if (!from || !SHIPPED_PARTS.has(from.part)) return {};
    const check = (node, source) => {
      if (!source || typeof source.value !== 'string') return;
      const message = violation(from, targetOf(source.value, context.filename), source.value);
      if (message) context.report({ node, message });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source.type === 'Literal' ? node.source : null),
      CallExpression: (node) => {
        if (
          node.callee.type === 'Identifier' &&
          node.callee.name === 'require' &&
          node.arguments[0]?.type === 'Literal'
        )
          check(node, node.arguments[0]);
      },
    };
  },
};

export default { rules: { 'no-cross-boundary-imports': noCrossBoundaryImports } };
