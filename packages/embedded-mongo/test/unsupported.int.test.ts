// What the embedded server does not implement is refused with a server
// error (MongoDB's own where it has one, else 115 'not supported by the embedded server'), never
// accepted and answered differently from MongoDB.
import { failure, useTestDatabase } from './support';

const t = useTestDatabase({ replSet: 'rs0' });

async function names(): Promise<string[]> {
  return (await t.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
}

describe('collection kinds the server does not have', () => {
  it.each([
    ['capped', { capped: true, size: 4096 }, /capped/],
    ['time-series', { timeseries: { timeField: 'ts' } }, /time-series/],
    ['json-schema validator', { validator: { $jsonSchema: { required: ['a'] } } }, /jsonSchema/],
    ['clustered', { clusteredIndex: { key: { _id: 1 }, unique: true } }, /clustered/],
    [
      'clustered with TTL',
      { clusteredIndex: { key: { _id: 1 }, unique: true }, expireAfterSeconds: 60 },
      /clustered/,
    ],
    ['pre- and post-images', { changeStreamPreAndPostImages: { enabled: true } }, /pre- and post-images/],
    ['collation strength 4', { collation: { locale: 'fr', strength: 4 } }, /strength/],
  ])('%s: 115 naming the feature, and no collection', async (label, options, feature) => {
    const name = `refused_${label}`;
    const err = await failure(t.db.createCollection(name, options as never));
    expect(err.code).toBe(115);
    expect(err.message).toMatch(/not supported by the embedded server/);
    expect(err.message).toMatch(feature);
    expect(await names()).not.toContain(name);
  });

  it('collMod to one of those kinds (pre- and post-images, TTL, time-series) is 115, the collection unchanged', async () => {
    await t.db.createCollection('plain');
    for (const option of [
      { changeStreamPreAndPostImages: { enabled: true } },
      { expireAfterSeconds: 60 },
      { timeseries: { granularity: 'hours' } },
    ]) {
      const err = await failure(t.db.command({ collMod: 'plain', ...option }));
      expect(err.code).toBe(115);
      expect(err.message).toContain(Object.keys(option)[0]);
    }
    const [info] = await t.db.listCollections({ name: 'plain' }, { nameOnly: false }).toArray();
    expect(info.options).toEqual({});
  });
});

describe('collations the server cannot apply', () => {
  it('strengths 4-5, backwards and normalization (on queries and indexes), and $expr or grouping under a collation are 115', async () => {
    const c = t.db.collection('collated');
    await c.insertMany([{ s: 'a' }, { s: 'A' }]);
    const collation = { locale: 'en', strength: 2 };
    const attempts: Array<Promise<unknown>> = [
      c.createIndex({ s: 1 }, { collation: { locale: 'en', strength: 5 } }),
      c.createIndex({ s: 1 }, { collation: { locale: 'fr', backwards: true } }),
      c.createIndex({ s: 1 }, { collation: { locale: 'en', normalization: true } }),
      c.find({ s: 'a' }, { collation: { locale: 'en', strength: 4 } }).toArray(),
      c.find({ $expr: { $eq: ['$s', 'a'] } }, { collation }).toArray(),
      c.aggregate([{ $group: { _id: '$s' } }], { collation }).toArray(),
    ];
    for (const attempt of attempts) expect((await failure(attempt)).code).toBe(115);
    expect((await c.listIndexes().toArray()).length).toBe(1);
  });
});

describe('change streams and Atlas Search', () => {
  it('watch() fails with a server error instead of waiting for events that never come', async () => {
    const stream = t.db.collection('watched').watch();
    try {
      const err = await failure(stream.tryNext());
      expect(err.code).toBe(115);
    } finally {
      await stream.close();
    }
  });

  it('search index commands answer MongoDB Community’s "only supported with Atlas"', async () => {
    const c = t.db.collection('searched');
    await c.insertOne({ a: 1 });
    const err = await failure(
      c.createSearchIndex({ name: 'default', definition: { mappings: { dynamic: true } } }),
    );
    expect(err.message).toMatch(/Atlas/);
    expect(err.code).not.toBe(59);
    expect((await failure(c.listSearchIndexes().toArray())).message).toMatch(/Atlas/);
    expect((await failure(c.dropSearchIndex('default'))).message).toMatch(/Atlas/);
    expect(
      (await failure(c.aggregate([{ $search: { text: { query: 'x', path: 'a' } } }]).toArray())).message,
    ).toMatch(/Atlas/);
  });
});
