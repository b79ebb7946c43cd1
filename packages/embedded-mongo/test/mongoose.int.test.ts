import mongoose, { Schema, Types } from 'mongoose';
import { TestDatabase, openTestDatabase } from './support';

let t: TestDatabase;
let conn: mongoose.Connection;

const authorSchema = new Schema(
  { name: { type: String, required: true }, email: { type: String, unique: true, required: true } },
  { timestamps: true },
);
const bookSchema = new Schema({
  title: String,
  author: { type: Schema.Types.ObjectId, ref: 'Author' },
  price: { type: Schema.Types.Decimal128 },
  tags: [String],
  reviews: [{ stars: Number, by: String }],
});
bookSchema.index({ author: 1, title: 1 });

function register(c: mongoose.Connection) {
  return { Author: c.model('Author', authorSchema), Book: c.model('Book', bookSchema) };
}
let models: ReturnType<typeof register>;

beforeAll(async () => {
  t = await openTestDatabase();
  conn = await mongoose.createConnection(t.uri, { dbName: t.db.databaseName }).asPromise();
  models = register(conn);
});

afterAll(async () => {
  await conn.close();
  await t.close();
});

describe('mongoose models', () => {
  it('creates, reads, updates and deletes through a model with timestamps', async () => {
    const { Author } = models;
    await Author.init();
    const ann = await Author.create({ name: 'Ann', email: 'ann@example.com' });
    expect(ann.createdAt).toBeInstanceOf(Date);
    const found = await Author.findById(ann._id).lean();
    expect(found).toMatchObject({ name: 'Ann', email: 'ann@example.com' });
    const updated = await Author.findByIdAndUpdate(
      ann._id,
      { name: 'Ann B' },
      { returnDocument: 'after', runValidators: true },
    );
    expect(updated!.name).toBe('Ann B');
    expect(updated!.updatedAt.getTime()).toBeGreaterThanOrEqual(ann.updatedAt.getTime());
    expect(await Author.exists({ email: 'ann@example.com' })).toBeTruthy();
    expect(await Author.countDocuments({ name: /^Ann/ })).toBe(1);
    expect(await Author.estimatedDocumentCount()).toBe(1);
    await Author.deleteOne({ _id: ann._id });
    expect(await Author.findById(ann._id)).toBeNull();
  });

  it('rejects a duplicate on a schema unique index with 11000', async () => {
    const { Author } = models;
    await Author.create({ name: 'Bob', email: 'bob@example.com' });
    await expect(Author.create({ name: 'Bob 2', email: 'bob@example.com' })).rejects.toMatchObject({
      code: 11000,
      keyValue: { email: 'bob@example.com' },
    });
  });

  it('syncs indexes, populates references and keeps Decimal128 prices', async () => {
    const { Author, Book } = models;
    await Book.syncIndexes();
    const names = (await Book.listIndexes()).map((i: { name: string }) => i.name);
    expect(names).toContain('author_1_title_1');
    const cy = await Author.create({ name: 'Cy', email: 'cy@example.com' });
    await Book.insertMany([
      { title: 'B', author: cy._id, price: '19.99', tags: ['x'] },
      { title: 'A', author: cy._id, price: '5.01', tags: ['x', 'y'] },
    ]);
    const books = await Book.find({ author: cy._id }).sort({ title: 1 }).populate('author').lean();
    expect(books.map((b) => b.title)).toEqual(['A', 'B']);
    expect((books[0].author as unknown as { name: string }).name).toBe('Cy');
    expect(books[1].price!.toString()).toBe('19.99');
    const [total] = await Book.aggregate([
      { $match: { author: cy._id } },
      { $group: { _id: null, sum: { $sum: '$price' } } },
    ]);
    expect(total.sum.toString()).toBe('25.00');
  });

  it('pushes subdocuments and updates them positionally', async () => {
    const { Book } = models;
    const book = await Book.create({ title: 'R', reviews: [] });
    await Book.updateOne({ _id: book._id }, { $push: { reviews: { stars: 3, by: 'a' } } });
    await Book.updateOne({ _id: book._id }, { $push: { reviews: { stars: 4, by: 'b' } } });
    await Book.updateOne({ _id: book._id, 'reviews.by': 'a' }, { $set: { 'reviews.$.stars': 5 } });
    const doc = await Book.findById(book._id).lean();
    expect(doc!.reviews.map((r) => [r.by, r.stars])).toEqual([
      ['a', 5],
      ['b', 4],
    ]);
    expect(doc!.reviews[0]._id).toBeInstanceOf(Types.ObjectId);
  });

  it('runs bulkWrite and streams a cursor past the first batch', async () => {
    const Item = conn.model('Item', new Schema({ n: Number }));
    await Item.bulkWrite([
      { insertOne: { document: { n: 1 } } },
      { insertOne: { document: { n: 2 } } },
      { updateOne: { filter: { n: 1 }, update: { $set: { n: 10 } } } },
      { deleteOne: { filter: { n: 2 } } },
      { updateOne: { filter: { n: 99 }, update: { $set: { n: 99 } }, upsert: true } },
    ]);
    expect((await Item.find().sort({ n: 1 }).lean()).map((d) => d.n)).toEqual([10, 99]);
    await Item.insertMany(Array.from({ length: 250 }, (_, i) => ({ n: 1000 + i })));
    let seen = 0;
    for await (const doc of Item.find({ n: { $gte: 1000 } }).cursor({ batchSize: 50 })) {
      expect(doc.n).toBeGreaterThanOrEqual(1000);
      seen++;
    }
    expect(seen).toBe(250);
  });
});
