// The shell's static server (port 3000): the host page for every route of the product.
import path from 'node:path';
import { runStaticServer } from '@lsp/frontend-kit';

runStaticServer({ dist: path.join(__dirname, 'dist'), spaFallback: true, defaultPort: 3000 }).catch((err) => {
  console.error(err);
  process.exit(1);
});
