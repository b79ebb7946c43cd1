import path from 'node:path';

/** Files whose names do not change between builds: browsers must revalidate them. */
const ALWAYS_REVALIDATE = new Set([
  'index.html',
  'main.js',
  'mf-manifest.json',
  'mf-stats.json',
  'remoteEntry.js',
]);
const HASHED = /\.[0-9a-f]{8,}\.(js|css|woff2?|png|svg|jpg)$/;

/**
 * Content-hashed files never change under their name, so browsers may keep them for a year; the
 * files that name them are revalidated on every visit so a redeploy is picked up at once.
 */
export function cacheControlFor(filePath: string): string {
  // A pre-compressed variant (.br, .gz) is cached like the file it encodes.
  const base = path.basename(filePath).replace(/\.(br|gz|deflate)$/, '');
  if (ALWAYS_REVALIDATE.has(base)) return 'no-cache';
  if (HASHED.test(base)) return 'public, max-age=31536000, immutable';
  return 'no-cache';
}
