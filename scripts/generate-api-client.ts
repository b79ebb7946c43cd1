// `npm run generate:api-client`: rewrites packages/ui/src/app/api-routes.generated.ts from the route
// declarations in packages/contracts. Run it after adding or changing a public route.
import { writeFileSync } from 'node:fs';
import { API_ROUTES_MODULE, renderApiRoutesModule } from './lib/api-client-codegen';

writeFileSync(API_ROUTES_MODULE, renderApiRoutesModule());
console.log(`wrote ${API_ROUTES_MODULE}`);
