// The Node `npm start` and `npm test` run on: the major of package.json's `engines.node` (the
// supported LTS) or newer. Plain Node, no dependencies: it runs before anything is installed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The oldest Node major package.json's engines accept (`>=24` gives 24). */
export function supportedNodeMajor() {
  const range = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).engines.node;
  const match = /^>=\s*(\d+)/.exec(range);
  if (!match) throw new Error(`package.json engines.node is not of the form ">=N": ${range}`);
  return Number(match[1]);
}

/** The line to print for an older Node, or null when this Node is supported. */
export function unsupportedNodeMessage(version = process.versions.node) {
  const major = supportedNodeMajor();
  if (Number(version.split('.')[0]) >= major) return null;
  return (
    `✖ This needs Node ${major} or newer, and this is Node ${version}: install Node ${major} LTS ` +
    `(https://nodejs.org, \`nvm install ${major}\`), or run .ci/run, which fetches it into .cache/node.`
  );
}

/** Stops the process with that one line when this Node is older than the supported one. */
export function requireSupportedNode() {
  const message = unsupportedNodeMessage();
  if (message === null) return;
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
