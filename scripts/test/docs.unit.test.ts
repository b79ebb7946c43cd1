// The documentation stays true to the code and to itself: each service README's events block is what
// scripts/readme-events.mjs would write, and every relative link in the Markdown docs leads to a file.
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

/** Relative link targets of a Markdown file (code spans and fenced blocks left out). */
function relativeLinks(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const targets = [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
  return targets.filter((t) => !/^[a-z]+:/i.test(t) && !t.startsWith('#') && !t.startsWith('/'));
}

describe('documentation', () => {
  it("has each service README's events block as the contracts and the service's code give it", async () => {
    const { serviceReadmes } = (await import(EVENTS_MODULE)) as {
      serviceReadmes(root: string): ReadmeState[];
    };
    const readmes = serviceReadmes(ROOT);
    expect(readmes.length).toBeGreaterThan(0);
    const stale = readmes
      .filter((r) => r.current !== r.wanted)
      .map((r) => `${path.relative(ROOT, r.file)} (run: node scripts/readme-events.mjs)`);
    expect(stale).toEqual([]);
  });

  it('links only to files that exist', () => {
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      for (const link of relativeLinks(text)) {
        const target = decodeURIComponent(link.split('#')[0]!);
        if (!existsSync(path.resolve(ROOT, path.dirname(file), target))) broken.push(`${file} → ${link}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
