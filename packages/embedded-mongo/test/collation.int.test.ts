// Collations (Intl.Collator, strengths 1-3) on find, aggregate, count,
// distinct, update, delete and findAndModify.
import { useTestDatabase } from './support';

const t = useTestDatabase({ replSet: 'rs0' });

async function seeded(name: string) {
  const c = t.db.collection(name);
  await c.insertMany([
    { _id: 1, s: 'cafe' },
    { _id: 2, s: 'Cafe' },
    { _id: 3, s: 'café' },
    { _id: 4, s: 'other' },
  ] as never[]);
  await c.createIndex({ s: 1 }); // a binary index must not narrow a collated query
  return c;
}

const ids = (docs: Array<{ _id: unknown }>) => docs.map((d) => d._id).sort();

describe('collation strengths', () => {
  it('find: 1 ignores case and accents, 2 ignores case, 3 (default) is exact; simple is binary', async () => {
    const c = await seeded('coll_find');
    expect(ids(await c.find({ s: 'cafe' }, { collation: { locale: 'en', strength: 1 } }).toArray())).toEqual([
      1, 2, 3,
    ]);
    expect(ids(await c.find({ s: 'cafe' }, { collation: { locale: 'en', strength: 2 } }).toArray())).toEqual([
      1, 2,
    ]);
    expect(ids(await c.find({ s: 'cafe' }, { collation: { locale: 'en' } }).toArray())).toEqual([1]);
    expect(
      ids(await c.find({ s: { $in: ['CAFE'] } }, { collation: { locale: 'en', strength: 2 } }).toArray()),
    ).toEqual([1, 2]);
    expect(ids(await c.find({ s: 'CAFE' }, { collation: { locale: 'simple' } }).toArray())).toEqual([]);
  });

  it('sort follows the locale; numericOrdering sorts digits as numbers', async () => {
    const c = t.db.collection('coll_sort');
    await c.insertMany([{ s: 'b' }, { s: 'B' }, { s: 'a' }, { s: 'A' }, { s: 'c10' }, { s: 'c9' }]);
    const sorted = await c
      .find({}, { collation: { locale: 'en', caseFirst: 'upper' }, projection: { _id: 0 } })
      .sort({ s: 1 })
      .toArray();
    expect(sorted.map((d) => d.s)).toEqual(['A', 'a', 'B', 'b', 'c10', 'c9']);
    const numeric = await c
      .find({ s: /^c/ }, { collation: { locale: 'en', numericOrdering: true }, projection: { _id: 0 } })
      .sort({ s: 1 })
      .toArray();
    expect(numeric.map((d) => d.s)).toEqual(['c9', 'c10']);
  });

  it('count, distinct and aggregate ($match, $sort, countDocuments) use it', async () => {
    const c = await seeded('coll_read');
    const collation = { locale: 'en', strength: 2 };
    expect(await c.countDocuments({ s: 'CAFE' }, { collation })).toBe(2);
    expect(await c.distinct('s', { s: 'cafe' }, { collation })).toHaveLength(1);
    const agg = await c
      .aggregate<{ _id: unknown }>([{ $match: { s: 'CAFÉ' } }, { $sort: { _id: 1 } }], { collation })
      .toArray();
    expect(ids(agg)).toEqual([3]);
  });

  it('update, delete and findAndModify match with it', async () => {
    const c = await seeded('coll_write');
    const collation = { locale: 'fr', strength: 1 };
    const u = await c.updateMany({ s: 'CAFE' }, { $set: { hit: true } }, { collation });
    expect(u.modifiedCount).toBe(3);
    const f = await c.findOneAndUpdate(
      { s: 'OTHER' },
      { $set: { hit: true } },
      { collation: { locale: 'en', strength: 2 }, returnDocument: 'after' },
    );
    expect(f).toEqual({ _id: 4, s: 'other', hit: true });
    const d = await c.deleteMany({ s: 'Café' }, { collation: { locale: 'en', strength: 2 } });
    expect(d.deletedCount).toBe(1);
    expect(ids(await c.find().toArray())).toEqual([1, 2, 4]);
  });
});
