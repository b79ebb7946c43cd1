import { Binary, Decimal128, Double, Int32, Long, ObjectId, UUID } from 'mongodb';
import { useTestDatabase } from './support';

const t = useTestDatabase();

describe('numeric types', () => {
  beforeAll(async () => {
    await t.db.collection('nums').insertMany([
      { _id: 'int', v: new Int32(7) },
      { _id: 'double', v: new Double(7.5) },
      { _id: 'long', v: Long.fromString('9007199254740993') },
      { _id: 'decimal', v: Decimal128.fromString('7.25') },
      { _id: 'small-long', v: Long.fromNumber(3) },
    ] as never[]);
  });

  it('compares Int32, Double, Long and Decimal128 with one another', async () => {
    const gt7 = await t.db
      .collection('nums')
      .find({ v: { $gt: 7 } })
      .toArray();
    expect(gt7.map((d) => d._id).sort()).toEqual(['decimal', 'double', 'long']);
    const eq = await t.db
      .collection('nums')
      .find({ v: Decimal128.fromString('3.0') })
      .toArray();
    expect(eq.map((d) => d._id)).toEqual(['small-long']);
    const exactLong = await t.db
      .collection('nums')
      .find({ v: { $gt: Long.fromString('9007199254740992') } })
      .toArray();
    expect(exactLong.map((d) => d._id)).toEqual(['long']);
  });

  it('sorts mixed numeric types by value', async () => {
    const sorted = await t.db.collection('nums').find().sort({ v: 1 }).toArray();
    expect(sorted.map((d) => d._id)).toEqual(['small-long', 'int', 'decimal', 'double', 'long']);
  });

  it('sums Longs exactly and Decimals as decimals', async () => {
    const coll = t.db.collection('sums');
    await coll.insertMany([
      { g: 'long', v: Long.fromString('9007199254740993') },
      { g: 'long', v: Long.fromNumber(1) },
      { g: 'dec', v: Decimal128.fromString('0.1') },
      { g: 'dec', v: Decimal128.fromString('0.2') },
      { g: 'int', v: 2147483647 },
      { g: 'int', v: 1 },
    ]);
    const out = await coll
      .aggregate([{ $group: { _id: '$g', s: { $sum: '$v' } } }, { $sort: { _id: 1 } }], {
        promoteLongs: false,
      })
      .toArray();
    const byId = Object.fromEntries(out.map((d) => [d._id, d.s]));
    expect(byId.dec).toBeInstanceOf(Decimal128);
    expect(byId.dec.toString()).toBe('0.3');
    expect(byId.long).toBeInstanceOf(Long);
    expect(byId.long.toString()).toBe('9007199254740994');
    expect(byId.int.toString()).toBe('2147483648');
  });

  it('keeps numeric types in $add, $subtract, $multiply and $sum expressions', async () => {
    const coll = t.db.collection('expr');
    const when = new Date('2025-01-01T00:00:00Z');
    await coll.insertOne({
      _id: 1,
      big: Long.fromString('9007199254740993'),
      price: Decimal128.fromString('1.10'),
      qty: 3,
      list: [1, 2, 3.5],
      when,
    } as never);
    const [out] = await coll
      .aggregate(
        [
          {
            $project: {
              bigPlusOne: { $add: ['$big', 1] },
              total: { $multiply: ['$price', '$qty'] },
              listSum: { $sum: '$list' },
              later: { $add: ['$when', 60_000] },
              gap: { $subtract: [{ $add: ['$when', 1000] }, '$when'] },
              missing: { $add: ['$nope', 1] },
            },
          },
        ],
        { promoteLongs: false },
      )
      .toArray();
    expect(out.bigPlusOne.toString()).toBe('9007199254740994');
    expect(out.total).toBeInstanceOf(Decimal128);
    expect(out.total.toString()).toBe('3.30');
    expect(out.listSum).toBe(6.5);
    expect((out.later as Date).toISOString()).toBe('2025-01-01T00:01:00.000Z');
    expect(Number(out.gap)).toBe(1000);
    expect(out.missing).toBeNull();
  });

  it('increments a Long without losing precision and an Int32 into a Long on overflow', async () => {
    const coll = t.db.collection('inc');
    await coll.insertOne({
      _id: 1,
      big: Long.fromString('9007199254740993'),
      i: new Int32(2147483647),
    } as never);
    await coll.updateOne({ _id: 1 } as never, { $inc: { big: 1, i: 1 } });
    const doc = await coll.findOne({ _id: 1 } as never, { promoteLongs: false });
    expect(doc!.big.toString()).toBe('9007199254740994');
    expect(doc!.i.toString()).toBe('2147483648');
    expect(doc!.i).toBeInstanceOf(Long);
  });
});

describe('value round-trips', () => {
  it('returns Dates, ObjectIds, Binary and UUIDs exactly as stored', async () => {
    const coll = t.db.collection('values');
    const oid = new ObjectId();
    const uuid = new UUID();
    const date = new Date('2024-02-29T12:34:56.789Z');
    const bin = new Binary(Buffer.from([0, 1, 2, 250, 255]), 0);
    await coll.insertOne({ _id: oid, date, uuid, bin, nested: { when: date, list: [oid] } } as never);
    const doc = await coll.findOne({ _id: oid } as never);
    expect(doc!._id.equals(oid)).toBe(true);
    expect((doc!.date as Date).toISOString()).toBe(date.toISOString());
    expect(new UUID((doc!.uuid as Binary).buffer).toHexString()).toBe(uuid.toHexString());
    expect((doc!.uuid as Binary).sub_type).toBe(4);
    expect(Buffer.from((doc!.bin as Binary).buffer)).toEqual(Buffer.from([0, 1, 2, 250, 255]));
    expect(await coll.countDocuments({ uuid } as never)).toBe(1);
    expect(await coll.countDocuments({ 'nested.list': oid } as never)).toBe(1);
    expect(await coll.countDocuments({ date: { $gte: new Date('2024-01-01') } } as never)).toBe(1);
  });
});
