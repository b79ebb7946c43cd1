import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type TestMongo, silentLogger, startTestMongo } from '@lsp/testing';
import type { Connection } from 'mongoose';
import { replacePanelFromFile } from '../src/cli/replace-panel';
import { panelModels } from '../src/data/models/panel-versions';
import { type Panel, loadDefaultPanel, serialisePanel } from '../src/panel';
import { PanelStore, PanelVersionClashError } from '../src/data/panel-store';

const run = promisify(execFile);
const SERVICE_DIR = join(__dirname, '..');

// Processes and databases start for real: allow for a busy machine.
jest.setTimeout(60_000);

describe('lender panel store and the replace-panel command', () => {
  let mongo: TestMongo;
  let db: Connection;
  let dir: string;
  const base = loadDefaultPanel();
  const withVersion = (version: string, lenders = base.lenders): Panel => ({ ...base, version, lenders });

  beforeAll(async () => {
    mongo = await startTestMongo();
    dir = mkdtempSync(join(tmpdir(), 'panel-'));
  });

  beforeEach(async () => {
    db = await mongo.database('search_panel');
  });

  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await mongo?.stop();
  });

  it('seeds an empty database with the shipped panel once, then reads it back', async () => {
    const store = new PanelStore(db, silentLogger());
    let seeded = 0;
    await store.load(() => {
      seeded += 1;
      return base;
    });
    const again = new PanelStore(db, silentLogger());
    const loaded = await again.load(() => {
      seeded += 1;
      return withVersion('never-used');
    });
    expect(seeded).toBe(1);
    expect(loaded.version).toBe(base.version);
    expect(loaded.lenders).toHaveLength(base.lenders.length);
  });

  it('keeps every version and switches the active one; other instances pick it up on refresh', async () => {
    const writer = new PanelStore(db, silentLogger());
    const reader = new PanelStore(db, silentLogger());
    await writer.load(() => base);
    await reader.load(() => base);
    const activation = await writer.activate(withVersion('2027-01', base.lenders.slice(0, 60)), 'test');
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
    const store = new PanelStore(db, silentLogger());
    await store.load(() => base);
    await expect(
      store.activate(withVersion(base.version, base.lenders.slice(1)), 'test'),
    ).rejects.toBeInstanceOf(PanelVersionClashError);
    expect(store.current().lenders).toHaveLength(base.lenders.length);
    const state = await panelModels(db).state.findById('active').lean();
    expect(state?.version).toBe(base.version);
  });

  it('re-activates a stored version when the same panel is loaded again (a rollback)', async () => {
    const store = new PanelStore(db, silentLogger());
    await store.load(() => base);
    await store.activate(withVersion('2027-02', base.lenders.slice(0, 61)), 'test');
    const rollback = await store.activate(base, 'test');
    expect(rollback).toMatchObject({ version: base.version, previousVersion: '2027-02', stored: false });
    expect(await panelModels(db).versions.countDocuments()).toBe(2);
  });

  it('answers 503 for a search while no panel is loaded', () => {
    const store = new PanelStore(db, silentLogger());
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
      const store = new PanelStore(db, silentLogger());
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
      const outcome = await replacePanelFromFile(file, new PanelStore(db, silentLogger()), { dryRun: true });
      expect(outcome).toEqual({
        exitCode: 0,
        lines: [expect.stringContaining(`panel 2027-04, ${base.lenders.length} lenders`)],
      });
      expect(await panelModels(db).versions.countDocuments()).toBe(0);
    });

    it('replaces the panel with one command', async () => {
      const store = new PanelStore(db, silentLogger());
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
