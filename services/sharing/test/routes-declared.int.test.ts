import { describeRoutesDeclared } from '@lsp/testing';
import { startSharingHarness } from './sharing-harness';

describeRoutesDeclared('sharing', startSharingHarness);
