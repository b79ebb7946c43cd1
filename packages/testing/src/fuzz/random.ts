// The seeded generator every fuzz case is drawn from: a failure names its seed and reproduces.

/** A small seeded generator (mulberry32): the same seed gives the same cases. */
export class SeededRandom {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(below: number): number {
    return Math.floor(this.next() * below);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy;
  }
}

/** The seed a fuzz file runs with: FUZZ_SEED when set (to replay a failure), else the file's own. */
export function fuzzSeed(fallback: number): number {
  const given = Number(process.env.FUZZ_SEED);
  return Number.isInteger(given) && given > 0 ? given : fallback;
}
