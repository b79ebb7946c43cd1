// The _id map and every index key documents by a string built from their values. Two values
// MongoDB calls different must never share a key (or a document is refused as a duplicate, or a
// lookup returns the wrong one), and values MongoDB calls equal (numbers of any BSON type with the
// same value, missing and null in an index) must keep sharing one.
import { Code, Decimal128, Double, Int32, Long, MongoServerError } from 'mongodb';
import { failure, useTestDatabase } from './support';

const t = useTestDatabase();

/** Inserts each document into a fresh collection (with `index` unique when given); all must be accepted. */
async function insertsDistinct(name: string, docs: object[], index?: object) {
  const coll = t.db.collection(name);
  if (index) await coll.createIndex(index as never, { unique: true });
  for (const doc of docs) await coll.insertOne({ ...doc });
  expect(await coll.countDocuments()).toBe(docs.length);
  return coll;
}

describe('value keys: distinct values stay distinct', () => {
  it('sub-document _ids whose strings look like the key format', async () => {
    const coll = await insertsDistinct('k_subdoc_id', [
      { _id: { a: 'x,"b":sy' } },
      { _id: { a: 'x', b: 'y' } },
    ]);
    expect(await coll.findOne({ _id: { a: 'x', b: 'y' } as never })).toEqual({ _id: { a: 'x', b: 'y' } });
    expect(await coll.findOne({ _id: { a: 'x,"b":sy' } as never })).toEqual({ _id: { a: 'x,"b":sy' } });
  });

  it('arrays inside _ids: one string holding a comma against two strings', async () => {
    const coll = await insertsDistinct('k_array_in_id', [
      { _id: { k: ['a,sb'] } },
      { _id: { k: ['a', 'b'] } },
    ]);
    expect(await coll.findOne({ _id: { k: ['a', 'b'] } as never })).toEqual({ _id: { k: ['a', 'b'] } });
    expect(await coll.findOne({ _id: { k: ['a,sb'] } as never })).toEqual({ _id: { k: ['a,sb'] } });
  });

  it('a unique index on sub-documents and nested arrays', async () => {
    const coll = await insertsDistinct(
      'k_unique_nested',
      [
        { _id: 1, u: { a: 'x,"b":sy' } },
        { _id: 2, u: { a: 'x', b: 'y' } },
        { _id: 3, u: [['a,sb']] },
        { _id: 4, u: [['a', 'b']] },
        { _id: 5, u: { a: 'q"}' } },
        { _id: 6, u: { a: 'q', '"}': 1 } },
      ],
      { u: 1 },
    );
    expect((await coll.findOne({ u: { a: 'x', b: 'y' } }))?._id).toBe(2);
    expect((await coll.findOne({ u: { a: 'x,"b":sy' } }))?._id).toBe(1);
    expect((await coll.findOne({ u: ['a', 'b'] }))?._id).toBe(4);
    expect((await coll.findOne({ u: ['a,sb'] }))?._id).toBe(3);
  });

  it('a compound unique index on strings holding NUL characters', async () => {
    const coll = await insertsDistinct(
      'k_compound_nul',
      [
        { _id: 1, p: 'a\u0000sb', q: 'c' },
        { _id: 2, p: 'a', q: 'b\u0000sc' },
      ],
      { p: 1, q: 1 },
    );
    expect((await coll.findOne({ p: 'a', q: 'b\u0000sc' }))?._id).toBe(2);
    expect((await coll.findOne({ p: 'a\u0000sb', q: 'c' }))?._id).toBe(1);
    // The first field alone: the compound index's prefix lookup.
    expect((await coll.find({ p: 'a\u0000sb' }).toArray()).map((d) => d._id)).toEqual([1]);
  });

  it('a number and the string of its digits', async () => {
    const coll = await insertsDistinct('k_num_string', [{ _id: 1 }, { _id: '1' }, { _id: 'n1' }]);
    expect(await coll.findOne({ _id: '1' as never })).toEqual({ _id: '1' });
  });

  it('Code against a document with the same fields', async () => {
    await insertsDistinct(
      'k_code',
      [
        { _id: 1, c: new Code('x') },
        { _id: 2, c: { code: 'x', scope: null } },
      ],
      { c: 1 },
    );
    const coll = t.db.collection<{ _id: number; c: unknown }>('k_code');
    await coll.insertOne({ _id: 3, c: new Code('y') });
    // The matcher too tells one piece of code from another.
    expect((await coll.find({ c: { $in: [new Code('y')] } }).toArray()).map((d) => d._id)).toEqual([3]);
  });

  it('a Decimal128 and the double nearest to it (9.99 is not exactly 9.99 as a double)', async () => {
    const coll = await insertsDistinct('k_dec_double', [
      { _id: 9.99 },
      { _id: Decimal128.fromString('9.99') },
      { _id: Decimal128.fromString('0.1') },
      { _id: 0.1 },
    ]);
    expect(await coll.find({ _id: 9.99 as never }).toArray()).toEqual([{ _id: 9.99 }]);
    expect((await coll.find({ _id: Decimal128.fromString('9.99') as never }).toArray()).length).toBe(1);
    // Through the matcher rather than the _id map: MongoDB compares the double's exact value too.
    expect(await coll.find({ _id: { $in: [9.99] } as never }).toArray()).toEqual([{ _id: 9.99 }]);
  });

  it('Decimal128s that differ beyond a double’s precision', async () => {
    await insertsDistinct('k_dec_precision', [
      { _id: Decimal128.fromString('0.1') },
      { _id: Decimal128.fromString('0.1000000000000000000000000000000001') },
      { _id: Decimal128.fromString('1E+21') },
      { _id: Decimal128.fromString('1000000000000000000000.000000000001') },
    ]);
  });

  it('a double above 2^63 and the decimal of its shortest printed form', async () => {
    // 2^63 prints as 9223372036854776000, a different number.
    await insertsDistinct('k_big_double', [
      { _id: 2 ** 63 },
      { _id: Decimal128.fromString('9223372036854776000') },
    ]);
  });
});

describe('value keys: values MongoDB calls equal share a key', () => {
  async function duplicates(name: string, first: unknown, second: unknown) {
    const coll = t.db.collection(name);
    await coll.insertOne({ _id: first } as never);
    const err = await failure(coll.insertOne({ _id: second } as never));
    expect(err).toBeInstanceOf(MongoServerError);
    expect(err.code).toBe(11000);
    return coll;
  }

  it('1, 1.0, Int32(1), Long(1), Decimal128("1.00") are one _id', async () => {
    const coll = await duplicates('k_eq_one', new Int32(1), new Double(1.0));
    for (const v of [1, Long.fromNumber(1), Decimal128.fromString('1'), Decimal128.fromString('1.00')])
      await expect(coll.insertOne({ _id: v } as never)).rejects.toMatchObject({ code: 11000 });
    expect(await coll.findOne({ _id: Decimal128.fromString('1.0') as never })).not.toBeNull();
  });

  it('-0 and 0', async () => {
    await duplicates('k_eq_zero', 0, -0);
    await duplicates('k_eq_dec_zero', Decimal128.fromString('-0.00'), 0);
  });

  it('a double and the Decimal128 of its exact value', async () => {
    await duplicates('k_eq_half', 0.5, Decimal128.fromString('0.50'));
    await duplicates('k_eq_2_63', 2 ** 63, Decimal128.fromString('9223372036854775808'));
    await duplicates('k_eq_1e21', 1e21, Decimal128.fromString('1E+21'));
  });

  it('NaN and Infinity of either numeric type', async () => {
    await duplicates('k_eq_nan', NaN, Decimal128.fromString('NaN'));
    await duplicates('k_eq_inf', Infinity, Decimal128.fromString('Infinity'));
    await duplicates('k_eq_ninf', -Infinity, Decimal128.fromString('-Infinity'));
  });

  it('numbers inside sub-document _ids', async () => {
    const coll = await duplicates(
      'k_eq_nested',
      { a: [1, { b: 2 }] },
      { a: [Long.fromNumber(1), { b: 2.0 }] },
    );
    expect(
      await coll.findOne({ _id: { a: [Decimal128.fromString('1'), { b: 2 }] } as never }),
    ).not.toBeNull();
  });

  it('missing and null in a unique index (null in a sub-document is not missing)', async () => {
    const coll = t.db.collection<{ _id: number; u?: null }>('k_eq_null');
    await coll.createIndex({ u: 1 }, { unique: true });
    await coll.insertOne({ _id: 1 });
    await expect(coll.insertOne({ _id: 2, u: null })).rejects.toMatchObject({ code: 11000 });
    await insertsDistinct('k_null_nested', [{ _id: { a: null } }, { _id: {} }]);
  });
});
