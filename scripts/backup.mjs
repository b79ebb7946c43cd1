// `npm run backup [-- --out DIR] [--uri URI]`: a consistent copy of every database while the platform
// runs, in mongodump's layout. Default source: MONGO_URL, else the embedded MongoDB of `npm start`.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DATA_DIR, say } from './lib/bootstrap.mjs';
import { backup } from './lib/backup.mjs';

const { values } = parseArgs({ options: { out: { type: 'string' }, uri: { type: 'string' } } });
const uri =
  values.uri ?? process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017/?replicaSet=rs0&directConnection=true';
const out = path.resolve(
  values.out ?? path.join(DATA_DIR, 'backups', new Date().toISOString().replace(/[:.]/g, '-')),
);

backup(uri, out).then(
  (t) =>
    say(
      `Backed up ${t.documents} documents in ${t.collections} collections of ${t.databases} databases to ${out}`,
    ),
  (err) => {
    process.stderr.write(
      `\n✖ Backup failed: ${err.message}\n  Is the platform running (npm start), or MONGO_URL / --uri set?\n`,
    );
    process.exit(1);
  },
);
