import { describeRoutesDeclared } from '@lsp/testing';
import { startIdentityStack } from './harness';

describeRoutesDeclared('identity', startIdentityStack);
