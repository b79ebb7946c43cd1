import { describeRoutesDeclared } from '@lsp/testing';
import { startDipHarness } from './dip-harness';

describeRoutesDeclared('dip', startDipHarness);
