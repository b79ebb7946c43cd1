import { GridFSBucket } from 'mongodb';
import type { Connection } from 'mongoose';

export const PDF_BUCKET = 'dip_pdfs';

/** One file per DIP version: a change of the DIP renders a new version, never overwrites an old one. */
export const pdfFileName = (dipId: string, version: number) => `${dipId}-v${version}.pdf`;

/** Rendered PDFs in GridFS, in the dip database. */
export class PdfStore {
  private readonly bucket: GridFSBucket;

  constructor(private readonly connection: Connection) {
    this.bucket = new GridFSBucket(connection.db!, { bucketName: PDF_BUCKET });
  }

  async ensureIndexes(): Promise<void> {
    await this.connection
      .collection(`${PDF_BUCKET}.files`)
      .createIndex({ filename: 1 }, { unique: true, name: 'one_file_per_version' });
  }

  async find(dipId: string, version: number): Promise<Buffer | null> {
    const [file] = await this.bucket
      .find({ filename: pdfFileName(dipId, version) })
      .limit(1)
      .toArray();
    if (!file) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of this.bucket.openDownloadStream(file._id)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /**
   * Stores a render; a second store of the same version (a retried job) keeps the first file. Returns
   * the file's id either way.
   */
  async save(dipId: string, version: number, pdf: Buffer): Promise<string> {
    const filename = pdfFileName(dipId, version);
    const existing = await this.bucket.find({ filename }).limit(1).toArray();
    if (existing[0]) return String(existing[0]._id);
    const upload = this.bucket.openUploadStream(filename, { metadata: { dipId, version } });
    try {
      await new Promise<void>((resolve, reject) => {
        upload.once('finish', () => resolve());
        upload.once('error', reject);
        upload.end(pdf);
      });
    } catch (err) {
      await this.bucket.delete(upload.id).catch(() => undefined);
      const winner = await this.bucket.find({ filename }).limit(1).toArray();
      if (winner[0]) return String(winner[0]._id);
      throw err;
    }
    return String(upload.id);
  }
}
