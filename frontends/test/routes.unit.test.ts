import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathServedBy } from '../shell/src/remotes/remote-routes';

/**
 * Each frontend declares the paths it renders in its routes.json (the remotes publish theirs beside
 * their entry, and the shell routes by them). These tests hold the declarations to the apps' own
 * <Route>s, and every in-app link to a path some frontend serves.
 */
const ROOT = join(__dirname, '..', '..');
const FRONTENDS = ['shell', 'search', 'dashboard'] as const;

function declaredPaths(app: string): string[] {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'frontends', app, 'routes.json'), 'utf8')) as {
    paths: string[];
  };
  return manifest.paths;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Source without comments, so a path in prose is not taken for a link. */
function codeOf(file: string): string {
  return readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
}

/**
 * The static part of a template literal's path: `${…}` right after a '/' is one segment ('x');
 * anywhere else it starts the query or a suffix, where the path ends.
 */
function templatePath(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '$' && body[i + 1] === '{') {
      if (!out.endsWith('/')) break;
      out += 'x';
      let depth = 1;
      i += 2;
      while (i < body.length && depth > 0) {
        if (body[i] === '{') depth++;
        if (body[i] === '}') depth--;
        if (depth > 0) i++;
      }
    } else {
      out += body[i];
    }
  }
  return out;
}

/** Every string or template literal in the code that names a page path ('/dashboard?tab=shared'). */
function pagePathsIn(code: string): string[] {
  const literals = [
    ...[...code.matchAll(/'(\/[^'\n]*)'|"(\/[^"\n]*)"/g)].map((m) => m[1] ?? m[2]),
    ...[...code.matchAll(/`(\/(?:[^`\\]|\\.)*)`/g)].map((m) => templatePath(m[1])),
  ];
  return (
    literals
      .map((literal) => literal.split(/[?#]/)[0])
      .filter((path) => path === '/' || /^\/[a-z]/.test(path))
      // '/dip/' or '/dashboard/' are prefixes tested with startsWith, not links; /api and the
      // gateway's own files are not pages.
      .filter((path) => path === '/' || !path.endsWith('/'))
      .filter((path) => !/^\/(api|mf|dev)(\/|$)/.test(path) && path !== '/remotes.json')
  );
}

describe('routes each frontend declares', () => {
  it.each(FRONTENDS)("the %s app's <Route>s are exactly the paths in its routes.json", (app) => {
    const source = codeOf(join(ROOT, 'frontends', app, 'src', 'app.tsx'));
    const routed = [...source.matchAll(/<Route\s+path="([^"]+)"/g)].map((m) => m[1]).filter((p) => p !== '*');
    expect(routed.sort()).toEqual([...declaredPaths(app)].sort());
  });

  it('no path is declared by two frontends', () => {
    const all = FRONTENDS.flatMap(declaredPaths);
    expect(all.filter((path, i) => all.indexOf(path) !== i)).toEqual([]);
  });
});

describe('links inside the frontends', () => {
  const served = FRONTENDS.flatMap(declaredPaths);
  const links = [
    ...FRONTENDS.map((app) => join(ROOT, 'frontends', app, 'src')),
    join(ROOT, 'packages', 'ui', 'src'),
  ]
    .flatMap(sourceFiles)
    .flatMap((file) => pagePathsIn(codeOf(file)).map((path) => ({ file: relative(ROOT, file), path })));

  it('finds the links it checks (the scan reads the sources)', () => {
    const paths = new Set(links.map((link) => link.path));
    for (const known of [
      '/dashboard',
      '/login',
      '/search-results/x',
      '/dip/x/1',
      '/shared-deal/x',
      '/refer',
    ]) {
      expect(paths).toContain(known);
    }
    expect(links.length).toBeGreaterThan(80);
  });

  it('every link points to a path some frontend serves', () => {
    const dead = links.filter((link) => !pathServedBy(served, link.path));
    expect(dead).toEqual([]);
  });

  it('catches a link to a path nobody serves', () => {
    expect(pagePathsIn("navigate('/nowhere?x=1'); <Link to={`/dip/${id}/1/extra`} />")).toEqual([
      '/nowhere',
      '/dip/x/1/extra',
    ]);
    expect(pathServedBy(served, '/nowhere')).toBe(false);
    expect(pathServedBy(served, '/dip/x/1/extra')).toBe(false);
  });
});
