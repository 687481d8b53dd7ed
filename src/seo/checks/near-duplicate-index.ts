import { popcount32, simhashHalves } from '../page/index.js';

export interface NearDuplicateOptions {
  /** Largest Hamming distance (of 64 bits) still considered a near duplicate; at most 3. */
  maxDistance: number;
  /** Upper bound on pairwise comparisons; past it the search stops (results are then partial). */
  maxComparisons: number;
}

export interface NearDuplicateMatch {
  /** Index (into the input) of one similar item. */
  partner: number;
  distance: number;
}

interface Bucket {
  all: number[];
  /** Members without a partner yet (pruned lazily). */
  open: number[];
}

/**
 * Finds, for each SimHash, one other SimHash within `maxDistance` bits, without comparing all pairs.
 * The 64 bits are cut into 4 bands of 16: two hashes differing in at most 3 bits agree exactly on at
 * least one band (pigeonhole), so only items sharing a band value are compared. A newcomer stops at
 * its first partner and then only visits members still without one, so clusters of identical
 * templates cost linear time; unrelated items rarely share a 16-bit band (1 in 65,536).
 */
export function findNearDuplicates(
  simhashes: readonly string[],
  options: NearDuplicateOptions,
): (NearDuplicateMatch | null)[] {
  const count = simhashes.length;
  const high = new Uint32Array(count);
  const low = new Uint32Array(count);
  for (let i = 0; i < count; i++) [high[i], low[i]] = simhashHalves(simhashes[i]);
  return findNearDuplicateHalves(high, low, options);
}

/** findNearDuplicates over SimHashes already split into their halves (simhashHalves): item i is high[i], low[i]. */
export function findNearDuplicateHalves(
  high: Uint32Array,
  low: Uint32Array,
  options: NearDuplicateOptions,
): (NearDuplicateMatch | null)[] {
  if (options.maxDistance > 3) throw new RangeError('4 bands of 16 bits only guarantee matches up to distance 3');
  const count = high.length;
  const matches: (NearDuplicateMatch | null)[] = new Array<NearDuplicateMatch | null>(count).fill(null);
  // A 16-bit band value names a bucket. Most buckets of a real site hold one page: those are a slot in a
  // typed array (the member's index; -1 empty, -2 promoted), and only buckets of 2+ become objects.
  const single = [0, 1, 2, 3].map(() => new Int32Array(1 << 16).fill(-1));
  const shared = [
    new Map<number, Bucket>(),
    new Map<number, Bucket>(),
    new Map<number, Bucket>(),
    new Map<number, Bucket>(),
  ];
  const distance = (a: number, b: number): number =>
    popcount32((high[a] ^ high[b]) >>> 0) + popcount32((low[a] ^ low[b]) >>> 0);
  let budget = options.maxComparisons;

  for (let i = 0; i < count; i++) {
    for (let band = 0; band < 4; band++) {
      const key =
        band === 0 ? high[i] >>> 16 : band === 1 ? high[i] & 0xffff : band === 2 ? low[i] >>> 16 : low[i] & 0xffff;
      const only = single[band][key];
      if (only === -1) {
        // An empty bucket: nothing to compare with; the newcomer is its first member (and open if unmatched).
        single[band][key] = i;
        continue;
      }
      let bucket: Bucket;
      if (only >= 0) {
        // A member that found its partner since is skipped below, as in any open list.
        bucket = { all: [only], open: [only] };
        shared[band].set(key, bucket);
        single[band][key] = -2;
      } else {
        bucket = shared[band].get(key)!;
      }
      let comparedAll = false;
      if (matches[i] === null && bucket.all.length > 0) {
        comparedAll = true;
        for (const j of bucket.all) {
          if (--budget < 0) return matches;
          const d = distance(i, j);
          if (d <= options.maxDistance) {
            matches[i] = { partner: j, distance: d };
            matches[j] ??= { partner: i, distance: d };
            comparedAll = false;
            break;
          }
        }
      }
      if (!comparedAll && bucket.open.length > 0) {
        let kept = 0;
        for (const j of bucket.open) {
          if (matches[j] !== null) continue;
          if (--budget < 0) return matches;
          const d = distance(i, j);
          if (d <= options.maxDistance) {
            matches[j] = { partner: i, distance: d };
            matches[i] ??= { partner: j, distance: d };
          } else {
            bucket.open[kept++] = j;
          }
        }
        bucket.open.length = kept;
      }
      bucket.all.push(i);
      if (matches[i] === null) bucket.open.push(i);
    }
  }
  return matches;
}
