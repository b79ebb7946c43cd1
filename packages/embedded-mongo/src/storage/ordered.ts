// An index's entries kept in key order, for walks that answer sorts and ranges: a list of blocks
// of at most MAX_BLOCK entries, so an insert or a delete moves at most one block's entries instead
// of the whole index's, and a seek is two binary searches (over the blocks, then inside one).

/** One document's key in an index: its field values, and its RecordId to order equal keys. */
export interface IndexEntry {
  vals: unknown[];
  rid: number;
  id: string;
}

/** A position between entries: block `b`, offset `i` (block count and 0 past the end). */
export interface Cursor {
  b: number;
  i: number;
}

const MAX_BLOCK = 1024;
const BUILD_BLOCK = 512;

export class OrderedEntries {
  private blocks: IndexEntry[][] = [];

  constructor(private readonly cmp: (a: IndexEntry, b: IndexEntry) => number) {}

  /** Sorts `entries` once (an index's first ordered use) and cuts them into blocks. */
  static build(entries: IndexEntry[], cmp: (a: IndexEntry, b: IndexEntry) => number): OrderedEntries {
    entries.sort(cmp);
    const out = new OrderedEntries(cmp);
    for (let i = 0; i < entries.length; i += BUILD_BLOCK) out.blocks.push(entries.slice(i, i + BUILD_BLOCK));
    return out;
  }

  get size(): number {
    let n = 0;
    for (const block of this.blocks) n += block.length;
    return n;
  }

  insert(entry: IndexEntry): void {
    if (this.blocks.length === 0) {
      this.blocks.push([entry]);
      return;
    }
    const at = this.seek((e) => this.cmp(e, entry) < 0);
    // Past every block's last entry: it goes at the end of the last block.
    const b = Math.min(at.b, this.blocks.length - 1);
    const block = this.blocks[b];
    block.splice(at.b === b ? at.i : block.length, 0, entry);
    if (block.length > MAX_BLOCK)
      this.blocks.splice(b, 1, block.slice(0, MAX_BLOCK / 2), block.slice(MAX_BLOCK / 2));
  }

  /** Removes the entry equal to `entry` (same values and RecordId); false when there is none. */
  delete(entry: IndexEntry): boolean {
    const at = this.seek((e) => this.cmp(e, entry) < 0);
    const block = this.blocks[at.b];
    if (!block || this.cmp(block[at.i], entry) !== 0) return false;
    block.splice(at.i, 1);
    if (block.length === 0) this.blocks.splice(at.b, 1);
    return true;
  }

  /**
   * The first position whose entry `before` is false for: `before` must hold for a leading run of
   * the entries in order and for none after it.
   */
  seek(before: (e: IndexEntry) => boolean): Cursor {
    let lo = 0;
    let hi = this.blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const block = this.blocks[mid];
      if (before(block[block.length - 1])) lo = mid + 1;
      else hi = mid;
    }
    if (lo === this.blocks.length) return { b: lo, i: 0 };
    const block = this.blocks[lo];
    let i = 0;
    let j = block.length;
    while (i < j) {
      const mid = (i + j) >>> 1;
      if (before(block[mid])) i = mid + 1;
      else j = mid;
    }
    return { b: lo, i };
  }

  /** The entries from `start` up to (not including) `end`, forward or backward. */
  *between(start: Cursor, end: Cursor, backward: boolean): Generator<IndexEntry> {
    if (!backward) {
      let { b, i } = start;
      while (b < end.b || (b === end.b && i < end.i)) {
        const block = this.blocks[b];
        if (i >= block.length) {
          b++;
          i = 0;
          continue;
        }
        yield block[i++];
      }
      return;
    }
    let { b, i } = end;
    while (b > start.b || (b === start.b && i > start.i)) {
      if (i === 0) {
        b--;
        i = this.blocks[b].length;
        continue;
      }
      yield this.blocks[b][--i];
    }
  }
}
