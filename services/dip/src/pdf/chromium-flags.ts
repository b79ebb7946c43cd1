// The machine's Chromium as every launcher here runs it: as root, with no network but loopback (see
// TOOLCHAIN.md). The PDF renderer, the Playwright config and scripts/frontend-sizes.mjs all launch it
// this way. It imports nothing, so a script outside the service can load it on its own.

/** Flags for a root user on a machine with no network but loopback. */
export const LOOPBACK_CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
