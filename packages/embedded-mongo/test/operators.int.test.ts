import { useTestDatabase } from './support';

const t = useTestDatabase();

describe('query operators', () => {
  beforeAll(async () => {
    await t.db.collection('q').insertMany([
      {
        _id: 1,
        n: 5,
        s: 'apple',
        tags: ['red', 'fruit'],
        nested: {
          x: 1,
          list: [
            { k: 'a', v: 1 },
            { k: 'b', v: 2 },
          ],
        },
      },
      { _id: 2, n: 15, s: 'Banana', tags: ['yellow', 'fruit'], nested: { x: 2, list: [{ k: 'a', v: 3 }] } },
      { _id: 3, n: 25, s: 'carrot', tags: ['orange', 'vegetable'], maybe: null },
      { _id: 4, s: 'date', tags: [] },
    ] as never[]);
  });

  const ids = async (filter: object) =>
    (await t.db.collection('q').find(filter).sort({ _id: 1 }).toArray()).map(
      (d) => d._id as unknown as number,
    );

  it('compares with $eq $ne $gt $gte $lt $lte $in $nin', async () => {
    expect(await ids({ n: { $gt: 5, $lte: 25 } })).toEqual([2, 3]);
    expect(await ids({ n: { $ne: 15 } })).toEqual([1, 3, 4]);
    expect(await ids({ n: { $in: [5, 25] } })).toEqual([1, 3]);
    expect(await ids({ n: { $nin: [5, 25] } })).toEqual([2, 4]);
    expect(await ids({ n: { $eq: 15 } })).toEqual([2]);
    expect(await ids({ n: { $lt: 10 } })).toEqual([1]);
  });

  it('combines with $and $or $nor $not', async () => {
    expect(await ids({ $or: [{ n: 5 }, { s: 'date' }] })).toEqual([1, 4]);
    expect(await ids({ $and: [{ n: { $gt: 1 } }, { n: { $lt: 20 } }] })).toEqual([1, 2]);
    expect(await ids({ $nor: [{ n: 5 }, { n: 15 }] })).toEqual([3, 4]);
    expect(await ids({ n: { $not: { $gt: 10 } } })).toEqual([1, 4]);
  });

  it('tests presence and type with $exists and $type, and null matches missing', async () => {
    expect(await ids({ n: { $exists: false } })).toEqual([4]);
    expect(await ids({ maybe: null })).toEqual([1, 2, 3, 4]);
    expect(await ids({ maybe: { $exists: true } })).toEqual([3]);
    expect(await ids({ s: { $type: 'string' }, n: { $type: 'number' } })).toEqual([1, 2, 3]);
  });

  it('matches arrays with element equality, $all, $size and $elemMatch', async () => {
    expect(await ids({ tags: 'fruit' })).toEqual([1, 2]);
    expect(await ids({ tags: { $all: ['fruit', 'red'] } })).toEqual([1]);
    expect(await ids({ tags: { $size: 0 } })).toEqual([4]);
    expect(await ids({ 'nested.list': { $elemMatch: { k: 'a', v: { $gt: 2 } } } })).toEqual([2]);
    expect(await ids({ 'nested.list.k': 'b' })).toEqual([1]);
    expect(await ids({ 'nested.list.0.v': 3 })).toEqual([2]);
  });

  it('matches regular expressions, including case-insensitive ones', async () => {
    expect(await ids({ s: /^b/i })).toEqual([2]);
    expect(await ids({ s: { $regex: 'rr', $options: '' } })).toEqual([3]);
    expect(await ids({ s: { $in: [/^a/, 'date'] } })).toEqual([1, 4]);
  });

  it('evaluates $expr and $mod', async () => {
    expect(await ids({ $expr: { $gt: ['$n', '$nested.x'] } })).toEqual([1, 2, 3]);
    expect(await ids({ n: { $mod: [10, 5] } })).toEqual([1, 2, 3]);
  });

  it('projects a matched array element with the positional projection', async () => {
    const doc = await t.db
      .collection('q')
      .findOne({ 'nested.list.k': 'b' }, { projection: { 'nested.list.$': 1 } });
    expect(doc).toEqual({ _id: 1, nested: { list: [{ k: 'b', v: 2 }] } });
    const sliced = await t.db
      .collection('q')
      .findOne({ _id: 1 } as never, { projection: { tags: { $slice: 1 }, s: 1 } });
    expect(sliced).toEqual({ _id: 1, s: 'apple', tags: ['red'] });
  });
});

describe('update operators', () => {
  const coll = () => t.db.collection('u');
  const get = async (id: number) => coll().findOne({ _id: id } as never);

  it('applies $set $unset $inc $mul $min $max $rename on nested paths', async () => {
    await coll().insertOne({ _id: 1, a: { b: 1 }, c: 10, d: 'x', lo: 5, hi: 5 } as never);
    await coll().updateOne({ _id: 1 } as never, {
      $set: { 'a.e': 2 },
      $unset: { d: '' },
      $inc: { 'a.b': 4 },
      $mul: { c: 3 },
      $min: { lo: 2 },
      $max: { hi: 9 },
    });
    await coll().updateOne({ _id: 1 } as never, { $rename: { c: 'renamed' } });
    expect(await get(1)).toEqual({ _id: 1, a: { b: 5, e: 2 }, lo: 2, hi: 9, renamed: 30 });
  });

  it('sets $currentDate as a date', async () => {
    await coll().insertOne({ _id: 2 } as never);
    const before = Date.now();
    await coll().updateOne({ _id: 2 } as never, { $currentDate: { at: true } });
    const doc = await get(2);
    expect(doc!.at).toBeInstanceOf(Date);
    expect((doc!.at as Date).getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('pushes with $each, $sort and $slice, pulls and adds to sets', async () => {
    await coll().insertOne({
      _id: 3,
      scores: [5, 1],
      set: ['a'],
      items: [{ n: 1 }, { n: 2 }, { n: 3 }],
    } as never);
    await coll().updateOne(
      { _id: 3 } as never,
      { $push: { scores: { $each: [9, 3], $sort: -1, $slice: 3 } } } as never,
    );
    await coll().updateOne({ _id: 3 } as never, { $addToSet: { set: { $each: ['a', 'b', 'b'] } } });
    await coll().updateOne({ _id: 3 } as never, { $pull: { items: { n: { $gte: 2 } } } } as never);
    expect(await get(3)).toEqual({ _id: 3, scores: [9, 5, 3], set: ['a', 'b'], items: [{ n: 1 }] });
    await coll().updateOne({ _id: 3 } as never, { $pull: { scores: 5 }, $pop: { set: 1 } } as never);
    expect(await get(3)).toMatchObject({ scores: [9, 3], set: ['a'] });
  });

  it('updates the matched element with positional $, all elements with $[] and filtered ones with arrayFilters', async () => {
    await coll().insertOne({
      _id: 4,
      grades: [
        { g: 80, ok: false },
        { g: 95, ok: false },
        { g: 70, ok: false },
      ],
      plain: [1, 2, 3],
    } as never);
    await coll().updateOne({ _id: 4, 'grades.g': 95 } as never, { $set: { 'grades.$.ok': true } });
    expect(((await get(4))!.grades as { ok: boolean }[]).map((g) => g.ok)).toEqual([false, true, false]);
    await coll().updateOne({ _id: 4 } as never, { $inc: { 'plain.$[]': 10 } });
    await coll().updateOne(
      { _id: 4 } as never,
      { $set: { 'grades.$[low].ok': 'low' } },
      { arrayFilters: [{ 'low.g': { $lt: 75 } }] },
    );
    const doc = await get(4);
    expect(doc!.plain).toEqual([11, 12, 13]);
    expect((doc!.grades as { ok: unknown }[]).map((g) => g.ok)).toEqual([false, true, 'low']);
  });

  it('upserts from the filter equality fields with $setOnInsert only on insert', async () => {
    const first = await coll().updateOne(
      { email: 'e@x', kind: { $eq: 'user' } },
      { $set: { seen: 1 }, $setOnInsert: { created: 'once' } },
      { upsert: true },
    );
    expect(first.upsertedCount).toBe(1);
    await coll().updateOne(
      { email: 'e@x' },
      { $set: { seen: 2 }, $setOnInsert: { created: 'twice' } },
      { upsert: true },
    );
    const doc = await coll().findOne({ email: 'e@x' });
    expect(doc).toMatchObject({ email: 'e@x', kind: 'user', seen: 2, created: 'once' });
  });

  it('replaces a whole document keeping its _id', async () => {
    await coll().insertOne({ _id: 5, a: 1, b: 2 } as never);
    await coll().replaceOne({ _id: 5 } as never, { c: 3 });
    expect(await get(5)).toEqual({ _id: 5, c: 3 });
  });

  it('refuses to create a field inside a null with 28 PathNotViable', async () => {
    await coll().insertOne({ _id: 7, a: null } as never);
    await expect(coll().updateOne({ _id: 7 } as never, { $set: { 'a.b': 1 } })).rejects.toMatchObject({
      code: 28,
    });
    expect(await get(7)).toEqual({ _id: 7, a: null });
  });

  it('rejects conflicting operators on the same path with 40', async () => {
    await expect(
      coll().updateOne({ _id: 5 } as never, { $set: { c: 1 }, $inc: { c: 1 } }),
    ).rejects.toMatchObject({ code: 40 });
  });

  it('runs pipeline-style updates', async () => {
    await coll().insertOne({ _id: 6, a: 2, b: 3 } as never);
    await coll().updateOne({ _id: 6 } as never, [{ $set: { sum: { $add: ['$a', '$b'] } } }]);
    expect(await get(6)).toEqual({ _id: 6, a: 2, b: 3, sum: 5 });
  });
});
