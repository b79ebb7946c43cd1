// `npm run restore -- DIR [--dbpath FOLDER | --uri URI] [--drop]`: loads a backup (ours or mongodump's).
// With --dbpath it starts the embedded MongoDB on that folder (a fresh one, or .data/mongo while the
// platform is stopped), loads the backup and stops it again.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { say } from './lib/bootstrap.mjs';
import { restore, withEmbeddedMongo } from './lib/backup.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { dbpath: { type: 'string' }, uri: { type: 'string' }, drop: { type: 'boolean', default: false } },
});
const [from] = positionals;

async function main() {
  if (!from) throw new Error('usage: npm run restore -- BACKUP_DIR [--dbpath FOLDER | --uri URI] [--drop]');
  const source = path.resolve(from);
  const load = (uri) => restore(uri, source, { drop: values.drop });
  const totals = values.dbpath
    ? await withEmbeddedMongo(path.resolve(values.dbpath), load)
    : await load(
        values.uri ??
          process.env.MONGO_URL ??
          'mongodb://127.0.0.1:27017/?replicaSet=rs0&directConnection=true',
      );
  say(
    `Restored ${totals.documents} documents in ${totals.collections} collections of ${totals.databases} databases`,
  );
}

main().catch((err) => {
  process.stderr.write(`\n✖ Restore failed: ${err.message}\n`);
  process.exit(1);
});
