/**
 * 64-bit SimHash helpers. A SimHash is kept as 16 lowercase hex digits so it survives JSON and
 * database columns without BigInt; comparisons split it into two 32-bit halves.
 */

export const SIMHASH_BITS = 64;

/** The two 32-bit halves (high, low) of a 16-hex-digit SimHash. */
export function simhashHalves(hex: string): [number, number] {
  return [parseInt(hex.slice(0, 8), 16) >>> 0, parseInt(hex.slice(8, 16), 16) >>> 0];
}

export function popcount32(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Number of differing bits between two SimHashes (0..64). */
export function hammingDistance(a: string, b: string): number {
  const [ah, al] = simhashHalves(a);
  const [bh, bl] = simhashHalves(b);
  return popcount32((ah ^ bh) >>> 0) + popcount32((al ^ bl) >>> 0);
}

/** Bit-level agreement of two SimHashes, 0..1 (1 - distance/64). */
export function simhashSimilarity(a: string, b: string): number {
  return 1 - hammingDistance(a, b) / SIMHASH_BITS;
}
