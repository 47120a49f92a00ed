// A small seeded PRNG (mulberry32): the campaign is reproducible from its seed.
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 0x9e3779b9;
  }
  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
  /** Picks by weight: [[weight, value], ...]. */
  weighted<T>(xs: readonly (readonly [number, T])[]): T {
    const total = xs.reduce((a, [w]) => a + w, 0);
    let r = this.next() * total;
    for (const [w, v] of xs) {
      if ((r -= w) < 0) return v;
    }
    return xs[xs.length - 1][1];
  }
}
