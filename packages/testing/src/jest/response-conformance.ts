// Integration tests hold every service answer to its declared response (packages/service-kit/src/route-contracts.ts):
// an answer that does not match is a 500, so the test that provoked it fails.
process.env.RESPONSE_CONFORMANCE = 'strict';
