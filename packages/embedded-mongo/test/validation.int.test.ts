// Collection validators (query-operator form) enforced on insert, update,
// upsert and findAndModify; collMod changes validator, validationLevel and validationAction.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { startEmbeddedMongo } from '../src';
import { usingRealMongo, failure, useTestDatabase } from './support';

const t = useTestDatabase({ replSet: 'rs0' });

const validator = { qty: { $gte: 0 }, name: { $type: 'string' } };

describe('validators', () => {
  it('a document that fails is 121 with errInfo; nothing is written', async () => {
    const c = await t.db.createCollection('validated', { validator });
    await c.insertOne({ _id: 1, qty: 1, name: 'ok' } as never);
    const err = await failure(c.insertOne({ _id: 2, qty: -1, name: 'bad' } as never));
    expect(err.code).toBe(121);
    expect(err.message).toBe('Document failed validation');
    const info = err.errInfo as { failingDocumentId: unknown; details: Record<string, unknown> };
    expect(info.failingDocumentId).toBe(2);
    expect(info.details).toMatchObject({
      operatorName: '$and',
      clausesNotSatisfied: [
        { index: 0, details: { operatorName: '$gte', specifiedAs: { qty: { $gte: 0 } } } },
      ],
    });
    const upd = await failure(c.updateOne({ _id: 1 } as never, { $set: { name: 5 } }));
    expect(upd.code).toBe(121);
    const ups = await failure(c.updateOne({ _id: 9 } as never, { $set: { qty: -5 } }, { upsert: true }));
    expect(ups.code).toBe(121);
    const fam = await failure(c.findOneAndUpdate({ _id: 1 } as never, { $inc: { qty: -10 } }));
    expect(fam.code).toBe(121);
    expect(await c.find().toArray()).toEqual([{ _id: 1, qty: 1, name: 'ok' }]);
  });

  it('bypassDocumentValidation lets the write through', async () => {
    const c = await t.db.createCollection('bypassed', { validator });
    await c.insertOne({ _id: 1, qty: -1 } as never, { bypassDocumentValidation: true });
    await c.updateOne({ _id: 1 } as never, { $set: { qty: -2 } }, { bypassDocumentValidation: true });
    expect(await c.findOne({ _id: 1 } as never)).toEqual({ _id: 1, qty: -2 });
  });

  it('collMod: validationAction warn lets writes through; moderate leaves invalid documents updatable', async () => {
    const c = await t.db.createCollection('modded', { validator });
    await c.insertOne({ _id: 1, qty: -1, name: 'x' } as never, { bypassDocumentValidation: true });
    await c.insertOne({ _id: 2, qty: 1, name: 'y' } as never);
    await t.db.command({ collMod: 'modded', validationLevel: 'moderate' });
    await c.updateOne({ _id: 1 } as never, { $set: { qty: -3 } }); // already invalid: allowed
    expect((await failure(c.updateOne({ _id: 2 } as never, { $set: { qty: -3 } }))).code).toBe(121);
    await t.db.command({ collMod: 'modded', validationAction: 'warn' });
    await c.insertOne({ _id: 3, qty: -9 } as never);
    await t.db.command({ collMod: 'modded', validator: { qty: { $lt: 0 } }, validationAction: 'error' });
    expect((await failure(c.insertOne({ _id: 4, qty: 4 } as never))).code).toBe(121);
    const info = (await t.db.listCollections({ name: 'modded' }, { nameOnly: false }).toArray())[0]!.options;
    expect(info).toMatchObject({
      validator: { qty: { $lt: 0 } },
      validationLevel: 'moderate',
      validationAction: 'error',
    });
  });

  it('refuses what it cannot enforce: $jsonSchema (115), other collMod options (115), bad enums (2)', async () => {
    expect((await failure(t.db.createCollection('schema', { validator: { $jsonSchema: {} } }))).code).toBe(
      115,
    );
    await t.db.createCollection('plain');
    expect((await failure(t.db.command({ collMod: 'plain', expireAfterSeconds: 5 }))).code).toBe(115);
    expect((await failure(t.db.command({ collMod: 'plain', validationLevel: 'sometimes' }))).code).toBe(2);
    expect((await failure(t.db.command({ collMod: 'missing_coll', validationLevel: 'off' }))).code).toBe(26);
  });
});

(usingRealMongo ? describe.skip : describe)('journal', () => {
  it('a validator set by collMod survives a restart', async () => {
    const dbPath = fs.mkdtempSync(path.join(os.tmpdir(), 'em-validator-'));
    try {
      let server = await startEmbeddedMongo({ port: 0, dbPath });
      let client = await MongoClient.connect(server.uri);
      await client.db('v').createCollection('c');
      await client.db('v').command({ collMod: 'c', validator: { n: { $type: 'number' } } });
      await client.close();
      await server.stop();
      server = await startEmbeddedMongo({ port: 0, dbPath });
      client = await MongoClient.connect(server.uri);
      try {
        await expect(client.db('v').collection('c').insertOne({ n: 'x' })).rejects.toMatchObject({
          code: 121,
        });
      } finally {
        await client.close();
        await server.stop();
      }
    } finally {
      fs.rmSync(dbPath, { recursive: true, force: true });
    }
  });
});
