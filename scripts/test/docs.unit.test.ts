// The documentation stays true to the code and to itself: every block scripts/readme-events.mjs writes
// (service README events, the architecture diagram's event edges, the contracts folder table) is what it
// would write today, and every link in the Markdown docs leads to a file inside the repository or to a
// public http(s) address.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const EVENTS_MODULE = '../readme-events.mjs';

interface ReadmeState {
  file: string;
  current: string;
  wanted: string;
}

function markdownFiles(): string[] {
  const files = ['README.md'];
  const walk = (dir: string) => {
    for (const name of readdirSync(path.join(ROOT, dir)).sort()) {
      const rel = path.join(dir, name);
      if (statSync(path.join(ROOT, rel)).isDirectory()) walk(rel);
      else if (name.endsWith('.md')) files.push(rel);
    }
  };
  walk('docs');
  for (const group of ['services', 'frontends', 'packages']) {
    for (const name of readdirSync(path.join(ROOT, group)).sort()) {
      const readme = path.join(group, name, 'README.md');
      if (existsSync(path.join(ROOT, readme))) files.push(readme);
    }
  }
  return files;
}

/** Link targets of a Markdown file (code spans and fenced blocks left out), anchors within the file dropped. */
function linkTargets(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const targets = [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
  return targets.filter((t) => !t.startsWith('#'));
}

/**
 * Why a link cannot be opened by a reader of the repository, or null when it can: an http(s) address is
 * public; anything else must be a relative path to a file inside the repository.
 */
function unreachableLink(fromFile: string, link: string, root = ROOT): string | null {
  if (/^https?:\/\//i.test(link)) return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(link)) return 'not an http(s) address';
  if (link.startsWith('/')) return 'an absolute path, outside the repository';
  const target = path.resolve(root, path.dirname(fromFile), decodeURIComponent(link.split('#')[0]!));
  if (path.relative(root, target).startsWith('..')) return 'outside the repository';
  return existsSync(target) ? null : 'no such file';
}

describe('documentation', () => {
  it('has every generated block (service events, architecture diagram, contracts folders) as the code gives it', async () => {
    const { generatedDocuments } = (await import(EVENTS_MODULE)) as {
      generatedDocuments(root: string): ReadmeState[];
    };
    const documents = generatedDocuments(ROOT);
    expect(documents.map((d) => path.relative(ROOT, d.file))).toEqual(
      expect.arrayContaining([
        'docs/architecture.md',
        'packages/contracts/README.md',
        'services/dip/README.md',
      ]),
    );
    const stale = documents
      .filter((d) => d.current !== d.wanted)
      .map((d) => `${path.relative(ROOT, d.file)} (run: node scripts/readme-events.mjs)`);
    expect(stale).toEqual([]);
  });

  it("draws every event each service produces and consumes in the architecture diagram, dip's panel.activated and dip.product.changed among them", async () => {
    const { architectureEventEdges } = (await import(EVENTS_MODULE)) as {
      architectureEventEdges(root: string): string;
    };
    const edges = architectureEventEdges(ROOT);
    expect(edges).toMatch(/^ {2}dip -- [^\n]*\bdip\.product\.changed\b[^\n]* --> bus$/m);
    expect(edges).toMatch(/^ {2}bus -- [^\n]*\bpanel\.activated\b[^\n]* --> dip$/m);
  });

  it('finds a generated block stale once the code gives it otherwise', async () => {
    const { withEventsBlock, eventsBlock } = (await import(EVENTS_MODULE)) as {
      withEventsBlock(readme: string, block: string): string | null;
      eventsBlock(root: string, service: string): string;
    };
    const readme = readFileSync(path.join(ROOT, 'services/dip/README.md'), 'utf8');
    const edited = readme.replace('- `dip.product.changed`', '- `dip.product.renamed`');
    expect(edited).not.toBe(readme);
    expect(withEventsBlock(edited, eventsBlock(ROOT, 'dip'))).toBe(readme);
  });

  it('refuses a contracts folder without a description', async () => {
    const { contractFoldersTable, CONTRACT_FOLDERS } = (await import(EVENTS_MODULE)) as {
      contractFoldersTable(root: string): string;
      CONTRACT_FOLDERS: Record<string, unknown>;
    };
    const saved = CONTRACT_FOLDERS.ops;
    delete CONTRACT_FOLDERS.ops;
    try {
      expect(() => contractFoldersTable(ROOT)).toThrow(/undescribed \["ops"\]/);
    } finally {
      CONTRACT_FOLDERS.ops = saved;
    }
  });

  it('links only to files inside the repository or to public http(s) addresses', () => {
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      for (const link of linkTargets(text)) {
        const why = unreachableLink(file, link);
        if (why) broken.push(`${file} → ${link}: ${why}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('tells a link out of the repository from one into it', () => {
    expect(unreachableLink('docs/architecture.md', '../shared/DESIGN.md')).toBe('no such file');
    expect(unreachableLink('docs/architecture.md', '../../shared/DESIGN.md')).toBe('outside the repository');
    expect(unreachableLink('docs/architecture.md', '/work/shared/spec/a.txt')).toBe(
      'an absolute path, outside the repository',
    );
    expect(unreachableLink('docs/architecture.md', 'file:///etc/hosts')).toBe('not an http(s) address');
    expect(unreachableLink('docs/architecture.md', 'decisions/README.md#index')).toBeNull();
    expect(unreachableLink('docs/architecture.md', 'https://mermaid.js.org/')).toBeNull();
  });
});
