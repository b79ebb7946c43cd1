// Stands in for `node:crypto` in browser bundles: the platform's own crypto.randomUUID.
module.exports = { randomUUID: () => globalThis.crypto.randomUUID() };
