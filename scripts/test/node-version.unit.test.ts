// npm start and npm test refuse a Node older than package.json's engines with one line saying what to install.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const NODE_VERSION_MODULE = '../lib/node-version.mjs';

interface NodeVersionModule {
  supportedNodeMajor(): number;
  unsupportedNodeMessage(version?: string): string | null;
}

const load = () => import(NODE_VERSION_MODULE) as Promise<NodeVersionModule>;

describe('the supported Node check of npm start and npm test', () => {
  it("takes the supported major from package.json's engines", async () => {
    const { supportedNodeMajor } = await load();
    const engines = JSON.parse(readFileSync(path.join(__dirname, '../../package.json'), 'utf8')).engines;
    expect(`>=${supportedNodeMajor()}`).toBe(engines.node);
  });

  it('refuses an older Node in one line naming what to install, and accepts the supported major or newer', async () => {
    const { supportedNodeMajor, unsupportedNodeMessage } = await load();
    const major = supportedNodeMajor();
    const message = unsupportedNodeMessage(`${major - 4}.20.2`);
    expect(message).toContain(`Node ${major - 4}.20.2`);
    expect(message).toContain(`install Node ${major} LTS`);
    expect(message).not.toContain('\n');
    expect(unsupportedNodeMessage(`${major}.0.0`)).toBeNull();
    expect(unsupportedNodeMessage(`${major + 1}.3.1`)).toBeNull();
    // The Node running this test is a supported one (the check lets it through).
    expect(unsupportedNodeMessage()).toBeNull();
  });
});
