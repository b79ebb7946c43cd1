import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Outbox } from '@lsp/service-kit';
import { type TestMongo, silentLogger, startTestMongo } from '@lsp/testing';
import type { Connection } from 'mongoose';
import { replacePanelFromFile } from '../src/cli/replace-panel';
import { panelModels } from '../src/data/models/panel-versions';
import { type Panel, loadDefaultPanel, serialisePanel } from '../src/panel';
import {
  PanelAlreadyActiveError,
  PanelStore,
  PanelVersionClashError,
  PanelVersionNotFoundError,
} from '../src/data/panel-store';

const run = promisify(execFile);
const SERVICE_DIR = join(__dirname, '..');

// Processes and databases start for real: allow for a busy machine.
jest.setTimeout(60_000);

describe('lender panel store and the replace-panel command', () => {
  let mongo: TestMongo;
  let db: Connection;
  let dir: string;
  const base = loadDefaultPanel();
  const TEST_AUTHOR = { operator: 'ops@example.com', source: 'test' };
  const withVersion = (version: string, lenders = base.lenders): Panel => ({ ...base, version, lenders });

  beforeAll(async () => {
    mongo = await startTestMongo();
    dir = mkdtempSync(join(tmpdir(), 'panel-'));
  });

  let outbox: Outbox;

  beforeEach(async () => {
    db = await mongo.database('search_panel');
    outbox = await Outbox.open(db);
  });

  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await mongo?.stop();
  });

  it('seeds an empty database with the shipped panel once, then reads it back', async () => {
    const store = new PanelStore(db, silentLogger(), outbox);
    let seeded = 0;
    await store.load(() => {
      seeded += 1;
      return base;
    });
    const again = new PanelStore(db, silentLogger(), outbox);
    const loaded = await again.load(() => {
      seeded += 1;
      return withVersion('never-used');
    });
    expect(seeded).toBe(1);
    expect(loaded.version).toBe(base.version);
    expect(loaded.lenders).toHaveLength(base.lenders.length);
  });

  it('keeps every version and switches the active one; other instances pick it up on refresh', async () => {
    const writer = new PanelStore(db, silentLogger(), outbox);
    const reader = new PanelStore(db, silentLogger(), outbox);
    await writer.load(() => base);
    await reader.load(() => base);
    const activation = await writer.activate(withVersion('2027-01', base.lenders.slice(0, 60)), TEST_AUTHOR);
    expect(activation).toMatchObject({
      version: '2027-01',
      previousVersion: base.version,
      lenderCount: 60,
      stored: true,
    });
    expect(reader.currentVersion()).toBe(base.version);
    expect(await reader.refresh()).toBe(true);
    expect(reader.current().version).toBe('2027-01');
    expect(reader.current().lenders).toHaveLength(60);
    const versions = (await writer.listVersions()).map((v) => v._id).sort();
    expect(versions).toEqual([base.version, '2027-01'].sort());
  });

  it('refuses different content under a version already stored, and keeps the active panel', async () => {
    const store = new PanelStore(db, silentLogger(), outbox);
    await store.load(() => base);
    await expect(
      store.activate(withVersion(base.version, base.lenders.slice(1)), TEST_AUTHOR),
    ).rejects.toBeInstanceOf(PanelVersionClashError);
    expect(store.current().lenders).toHaveLength(base.lenders.length);
    const state = await panelModels(db).state.findById('active').lean();
    expect(state?.version).toBe(base.version);
  });

  it('re-activates a stored version when the same panel is loaded again (a rollback)', async () => {
    const store = new PanelStore(db, silentLogger(), outbox);
    await store.load(() => base);
    await store.activate(withVersion('2027-02', base.lenders.slice(0, 61)), TEST_AUTHOR);
    const rollback = await store.activate(base, TEST_AUTHOR);
    expect(rollback).toMatchObject({ version: base.version, previousVersion: '2027-02', stored: false });
    expect(await panelModels(db).versions.countDocuments()).toBe(2);
  });

  it('activates a stored draft with panel.activated in the outbox and an audit trail; going back is a rollback', async () => {
    const store = new PanelStore(db, silentLogger(), outbox);
    await store.load(() => base);
    const draft = withVersion('2027-06', base.lenders.slice(1));
    const { summary } = await store.storeDraft(draft, {
      operator: 'ana@example.com',
      source: 'upload: next.jsonl',
    });
    expect(summary).toMatchObject({
      version: '2027-06',
      status: 'draft',
      createdBy: 'ana@example.com',
      activatedAt: null,
    });
    expect(store.currentVersion()).toBe(base.version);

    const activation = await store.activateVersion('2027-06', 'ana@example.com');
    expect(activation).toMatchObject({
      version: '2027-06',
      previousVersion: base.version,
      rollback: false,
      activatedBy: 'ana@example.com',
      changedProducts: base.lenders[0].products.length,
    });
    expect(store.currentVersion()).toBe('2027-06');
    const entries = await db.collection('outbox').find({ type: 'panel.activated' }).toArray();
    expect(entries).toHaveLength(1);
    expect(JSON.parse(entries[0].payload).data).toMatchObject({
      version: '2027-06',
      previousVersion: base.version,
      rollback: false,
      changedProducts: base.lenders[0].products.map((p) => ({
        lenderId: base.lenders[0].id,
        productId: p.id,
        change: 'removed',
      })),
    });

    const back = await store.activateVersion(base.version, 'ben@example.com');
    expect(back).toMatchObject({ version: base.version, previousVersion: '2027-06', rollback: true });
    await expect(store.activateVersion(base.version, 'ben@example.com')).rejects.toBeInstanceOf(
      PanelAlreadyActiveError,
    );
    await expect(store.activateVersion('never-stored', 'ben@example.com')).rejects.toBeInstanceOf(
      PanelVersionNotFoundError,
    );

    const overview = await store.overview();
    expect(overview.active).toMatchObject({
      version: base.version,
      status: 'active',
      activatedBy: 'ben@example.com',
    });
    expect(overview.versions.find((v) => v.version === '2027-06')).toMatchObject({ status: 'previous' });
    expect(overview.audit.map((a) => [a.action, a.version, a.operator])).toEqual([
      ['rolled-back', base.version, 'ben@example.com'],
      ['activated', '2027-06', 'ana@example.com'],
      ['uploaded', '2027-06', 'ana@example.com'],
      ['activated', base.version, 'the platform, on its first start'],
    ]);
    expect(await db.collection('outbox').countDocuments({ type: 'panel.activated' })).toBe(2);
  });

  it('refuses to activate without an outbox rather than switch without telling anyone', async () => {
    const store = new PanelStore(db, silentLogger());
    await store.load(() => base);
    await store.storeDraft(withVersion('2027-07'), { operator: 'ana@example.com', source: 'test' });
    await expect(store.activateVersion('2027-07', 'ana@example.com')).rejects.toThrow(/no outbox/);
    expect((await store.overview()).active?.version).toBe(base.version);
  });

  it('answers 503 for a search while no panel is loaded', () => {
    const store = new PanelStore(db, silentLogger(), outbox);
    expect(() => store.current()).toThrow(expect.objectContaining({ statusCode: 503 }));
  });

  describe('replace-panel', () => {
    it('refuses a bad file with each line and reason and stores nothing', async () => {
      const lines = serialisePanel(withVersion('2027-03')).trimEnd().split('\n');
      const broken = JSON.parse(lines[2]);
      broken.regions = ['Atlantis'];
      lines[2] = JSON.stringify(broken);
      lines[4] = '{ not json';
      const file = join(dir, 'broken.jsonl');
      writeFileSync(file, `${lines.join('\n')}\n`);
      const store = new PanelStore(db, silentLogger(), outbox);
      const outcome = await replacePanelFromFile(file, store);
      expect(outcome.exitCode).toBe(1);
      expect(outcome.lines[0]).toBe(`Refused: ${file} is not a valid lender panel.`);
      expect(outcome.lines[1]).toMatch(
        new RegExp(`^${file}:3: invalid lender \\(lender ${broken.id}\\): regions\\.0: `),
      );
      expect(outcome.lines[2]).toMatch(new RegExp(`^${file}:5: not valid JSON`));
      expect(await panelModels(db).versions.countDocuments()).toBe(0);
    });

    it('checks a file without storing it on a dry run', async () => {
      const file = join(dir, 'dry.jsonl');
      writeFileSync(file, serialisePanel(withVersion('2027-04')));
      const outcome = await replacePanelFromFile(file, new PanelStore(db, silentLogger(), outbox), {
        dryRun: true,
      });
      expect(outcome).toEqual({
        exitCode: 0,
        lines: [expect.stringContaining(`panel 2027-04, ${base.lenders.length} lenders`)],
      });
      expect(await panelModels(db).versions.countDocuments()).toBe(0);
    });

    it('replaces the panel with one command', async () => {
      const store = new PanelStore(db, silentLogger(), outbox);
      await store.load(() => base);
      const file = join(dir, 'next.jsonl');
      writeFileSync(file, serialisePanel(withVersion('2027-05', base.lenders.slice(0, 62))));
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/replace-panel.ts', file], {
        cwd: SERVICE_DIR,
        env: { ...process.env, MONGO_URL: mongo.url, SEARCH_DB_NAME: db.name },
      });
      expect(stdout).toContain(`Lender panel 2027-05 stored and activated: 62 lenders`);
      expect(stdout).toContain(`previous version ${base.version}`);
      expect(await store.refresh()).toBe(true);
      expect(store.current().version).toBe('2027-05');
      // The page's code path: stored, activated with its operator, panel.activated in the outbox.
      expect(
        await db.collection('outbox').countDocuments({ type: 'panel.activated', subject: '2027-05' }),
      ).toBe(1);
      const [latest] = (await store.overview()).audit;
      expect(latest).toMatchObject({
        action: 'activated',
        version: '2027-05',
        operator: expect.stringMatching(/^command line/),
      });
    });

    it('exits non-zero from the command line on a bad file', async () => {
      const file = join(dir, 'empty.jsonl');
      writeFileSync(file, '\n');
      await expect(
        run(process.execPath, ['--import', 'tsx', 'src/cli/replace-panel.ts', file], {
          cwd: SERVICE_DIR,
          env: { ...process.env, MONGO_URL: mongo.url },
        }),
      ).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining(`${file}:1: the file is empty`) });
    });
  });
});
