import { useTestDatabase } from './support';

const t = useTestDatabase();

beforeAll(async () => {
  await t.db.collection('orders').insertMany([
    { _id: 1, customer: 'a', total: 10, items: ['x', 'y'], status: 'paid' },
    { _id: 2, customer: 'a', total: 30, items: ['x'], status: 'paid' },
    { _id: 3, customer: 'b', total: 5, items: [], status: 'open' },
    { _id: 4, customer: 'c', total: 50, items: ['z'], status: 'paid' },
  ] as never[]);
  await t.db.collection('customers').insertMany([
    { _id: 'a', name: 'Ann' },
    { _id: 'b', name: 'Bob' },
  ] as never[]);
});

const orders = () => t.db.collection('orders');

describe('aggregation', () => {
  it('matches, groups with accumulators and sorts', async () => {
    const out = await orders()
      .aggregate([
        { $match: { status: 'paid' } },
        {
          $group: {
            _id: '$customer',
            total: { $sum: '$total' },
            avg: { $avg: '$total' },
            n: { $sum: 1 },
            max: { $max: '$total' },
            ids: { $push: '$_id' },
            first: { $first: '$_id' },
          },
        },
        { $sort: { total: -1 } },
      ])
      .toArray();
    expect(out).toEqual([
      { _id: 'c', total: 50, avg: 50, n: 1, max: 50, ids: [4], first: 4 },
      { _id: 'a', total: 40, avg: 20, n: 2, max: 30, ids: [1, 2], first: 1 },
    ]);
  });

  it('projects, adds fields, skips, limits and counts', async () => {
    const out = await orders()
      .aggregate([
        { $sort: { _id: 1 } },
        { $addFields: { double: { $multiply: ['$total', 2] } } },
        { $project: { _id: 1, double: 1 } },
        { $skip: 1 },
        { $limit: 2 },
      ])
      .toArray();
    expect(out).toEqual([
      { _id: 2, double: 60 },
      { _id: 3, double: 10 },
    ]);
    expect(
      await orders()
        .aggregate([{ $match: { total: { $gt: 8 } } }, { $count: 'n' }])
        .toArray(),
    ).toEqual([{ n: 3 }]);
  });

  it('unwinds arrays, keeping empty ones when asked', async () => {
    const plain = await orders()
      .aggregate([{ $unwind: '$items' }])
      .toArray();
    expect(plain).toHaveLength(4);
    const kept = await orders()
      .aggregate([{ $unwind: { path: '$items', preserveNullAndEmptyArrays: true } }])
      .toArray();
    expect(kept).toHaveLength(5);
  });

  it('joins with $lookup', async () => {
    const out = await orders()
      .aggregate([
        { $match: { _id: { $in: [1, 4] } } },
        { $lookup: { from: 'customers', localField: 'customer', foreignField: '_id', as: 'who' } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(out[0].who).toEqual([{ _id: 'a', name: 'Ann' }]);
    expect(out[1].who).toEqual([]);
  });

  it('runs sub-pipelines with $facet', async () => {
    const [out] = await orders()
      .aggregate([
        {
          $facet: {
            count: [{ $count: 'n' }],
            top: [{ $sort: { total: -1 } }, { $limit: 1 }, { $project: { _id: 1 } }],
          },
        },
      ])
      .toArray();
    expect(out).toEqual({ count: [{ n: 4 }], top: [{ _id: 4 }] });
  });

  it('counts documents for mongoose-style countDocuments', async () => {
    expect(await orders().countDocuments({ status: 'paid' })).toBe(3);
    expect(await orders().countDocuments({}, { skip: 1, limit: 2 })).toBe(2);
  });

  it('pages results of a large aggregation through getMore', async () => {
    await t.db.collection('big').insertMany(Array.from({ length: 500 }, (_, i) => ({ i, g: i % 5 })));
    const out = await t.db
      .collection('big')
      .aggregate([{ $sort: { i: 1 } }], { batchSize: 50 })
      .toArray();
    expect(out).toHaveLength(500);
    expect(out[499].i).toBe(499);
  });
});
