// The search remote's static server (port 3001); the gateway proxies /mf/search/* here.
import path from 'node:path';
import { runStaticServer } from '@lsp/frontend-kit';

runStaticServer({
  dist: path.join(__dirname, 'dist'),
  prefix: '/mf/search/',
  spaFallback: false,
  defaultPort: 3001,
}).catch((err) => {
  console.error(err);
  process.exit(1);
});
