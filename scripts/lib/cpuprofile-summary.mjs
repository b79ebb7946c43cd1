// `node scripts/lib/cpuprofile-summary.mjs <file.cpuprofile>... [--top 25] [--last-seconds N]`: where a
// process spent its CPU, from the profiles `node --cpu-prof` writes (`npm run bench -- search-cpu` with
// SEARCH_CPU_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" profiles every process of the stack). Prints
// self time by function and by package (node_modules/<name>, node: internals, the repo's own code).
// --last-seconds keeps only the samples of the profile's last N seconds: the load, not the start-up
// (TypeScript compilation and module loading dominate a whole-run profile).
import { readFileSync } from 'node:fs';

/** Self milliseconds per profile node id, from the sample stream (each sample's time goes to its leaf). */
export function selfTimes(profile, lastSeconds = Infinity) {
  const self = new Map();
  const { samples = [], timeDeltas = [] } = profile;
  const from = profile.endTime - lastSeconds * 1e6;
  let at = profile.startTime;
  for (let i = 0; i < samples.length; i++) {
    at += timeDeltas[i] ?? 0;
    if (at < from) continue;
    self.set(samples[i], (self.get(samples[i]) ?? 0) + (timeDeltas[i] ?? 0) / 1000);
  }
  return self;
}

/** Where a script lives, at the granularity worth reading: a package, node's internals, or a repo folder. */
export function packageOf(url) {
  if (!url) return '(native, GC, idle)';
  if (url.startsWith('node:')) return 'node: internals';
  const modules = url.lastIndexOf('node_modules/');
  if (modules !== -1) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const repo = /\/(packages|services|frontends|scripts)\/([^/]+)\//.exec(url);
  return repo ? `${repo[1]}/${repo[2]}` : url;
}

/** Self time by function and by package, largest first, with the profile's total and idle time. */
export function summarise(profile, lastSeconds = Infinity) {
  const self = selfTimes(profile, lastSeconds);
  const byFunction = new Map();
  const byPackage = new Map();
  let total = 0;
  let idle = 0;
  for (const node of profile.nodes) {
    const ms = self.get(node.id) ?? 0;
    if (ms === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') {
      idle += ms;
      continue;
    }
    total += ms;
    const where = url
      ? `${url.replace(/^file:\/\//, '').replace(/^.*node_modules\//, '')}:${lineNumber + 1}`
      : '';
    const key = `${functionName || '(anonymous)'} ${where}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
    const pkg = functionName.startsWith('(') && !url ? functionName : packageOf(url);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + ms);
  }
  const sorted = (m) => [...m].sort((a, b) => b[1] - a[1]);
  return { total, idle, byFunction: sorted(byFunction), byPackage: sorted(byPackage) };
}

function main() {
  const args = process.argv.slice(2);
  const topAt = args.indexOf('--top');
  const top = topAt === -1 ? 25 : Number(args[topAt + 1]);
  const lastAt = args.indexOf('--last-seconds');
  const lastSeconds = lastAt === -1 ? Infinity : Number(args[lastAt + 1]);
  // A flag and the value after it; an absent flag (-1) takes nothing, in particular not the first file.
  const optionAt = new Set([topAt, lastAt].filter((i) => i >= 0).flatMap((i) => [i, i + 1]));
  const files = args.filter((_, i) => !optionAt.has(i));
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, 'utf8'));
    const { total, idle, byFunction, byPackage } = summarise(profile, lastSeconds);
    const pct = (ms) => `${((100 * ms) / total).toFixed(1).padStart(5)}%`;
    process.stdout.write(
      `\n${file}: ${total.toFixed(0)} ms busy, ${idle.toFixed(0)} ms idle\n  by package:\n`,
    );
    for (const [name, ms] of byPackage.slice(0, top)) process.stdout.write(`  ${pct(ms)}  ${name}\n`);
    process.stdout.write('  by function (self time):\n');
    for (const [name, ms] of byFunction.slice(0, top)) process.stdout.write(`  ${pct(ms)}  ${name}\n`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
