// `npm run bench`: every benchmark of the project, one after another, each printing its figures.
// Speed targets live here, never as timed assertions in tests. `npm run bench -- engine` runs those whose name contains 'engine'.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ROOT, ensureDependencies, ensureRedis, say } from './lib/bootstrap.mjs';

/** Every `bench/*.ts` of a package or service, the platform's (scripts/bench), then the frontend bundle sizes. */
function discoverBenches() {
  const found = [];
  for (const group of ['packages', 'services']) {
    for (const name of readdirSync(path.join(ROOT, group)).sort()) {
      const dir = path.join(ROOT, group, name, 'bench');
      if (!existsSync(dir)) continue;
      for (const file of readdirSync(dir)
        .filter((f) => f.endsWith('.ts'))
        .sort()) {
        found.push({
          name: `${name}/${file.replace(/\.ts$/, '')}`,
          file: path.join(group, name, 'bench', file),
        });
      }
    }
  }
  // The whole platform's benchmarks (the load bench starts the full stack, as `npm start` does).
  for (const file of readdirSync(path.join(ROOT, 'scripts', 'bench'))
    .filter((f) => f.endsWith('.ts'))
    .sort())
    found.push({
      name: `platform/${file.replace(/\.ts$/, '')}`,
      file: path.join('scripts', 'bench', file),
      needsBuild: true,
    });
  found.push({ name: 'frontend-sizes', file: 'scripts/frontend-sizes.mjs', plain: true, needsBuild: true });
  return found;
}

async function main() {
  const wanted = process.argv.slice(2);
  ensureDependencies();
  const redis = await ensureRedis();
  let failed = 0;
  try {
    for (const bench of discoverBenches()) {
      if (wanted.length && !wanted.some((w) => bench.name.includes(w))) continue;
      if (!existsSync(path.join(ROOT, bench.file))) {
        say(`${bench.name}: no benchmark at ${bench.file}`);
        continue;
      }
      if (bench.needsBuild)
        spawnSync(process.execPath, ['scripts/build-frontends.mjs'], { cwd: ROOT, stdio: 'inherit' });
      say(`Benchmark: ${bench.name}`);
      const args = bench.plain ? [bench.file] : ['--import', 'tsx', bench.file];
      const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
      if (result.status !== 0) failed += 1;
    }
  } finally {
    await redis.stop();
  }
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  process.stderr.write(`✖ ${err.message}\n`);
  process.exit(1);
});
