import { describeRoutesDeclared } from '@lsp/testing';
import { startSearchHarness } from './search-harness';

describeRoutesDeclared('search', startSearchHarness);
