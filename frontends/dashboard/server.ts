// The dashboard remote's static server (port 3002); the gateway proxies /mf/dashboard/* here.
import path from 'node:path';
import { runStaticServer } from '@lsp/frontend-kit';

runStaticServer({
  dist: path.join(__dirname, 'dist'),
  prefix: '/mf/dashboard/',
  spaFallback: false,
  defaultPort: 3002,
}).catch((err) => {
  console.error(err);
  process.exit(1);
});
