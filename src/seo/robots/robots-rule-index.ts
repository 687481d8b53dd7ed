import { robotsRuleMatches } from './robots-pattern.js';
import type { CompiledRule } from './robots-pattern.js';

/**
 * Rules filed by key length, then by key hash; a bucket is a linked list through `CompiledRule.next`
 * (no array per key). Hash collisions only cost an extra check.
 */
type Buckets = Map<number, Map<number, CompiledRule>>;

const BASE = 1_000_003;
// Keys are masked to 30 bits so V8 keeps them as small integers (no heap numbers in the maps).
const SMI_MASK = 0x3fffffff;

function hashOf(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, BASE) + text.charCodeAt(i)) | 0;
  return hash & SMI_MASK;
}

/** RFC 9309 precedence: the longer pattern wins, allow wins a tie; file order makes it deterministic. */
function beats(a: CompiledRule, b: CompiledRule): boolean {
  if (a.length !== b.length) return a.length > b.length;
  if (a.allow !== b.allow) return a.allow;
  return a.rule.line < b.rule.line;
}

function file(buckets: Buckets, key: string, compiled: CompiledRule): void {
  let byHash = buckets.get(key.length);
  if (byHash === undefined) {
    byHash = new Map();
    buckets.set(key.length, byHash);
  }
  const hash = hashOf(key);
  compiled.next = byHash.get(hash) ?? null;
  byHash.set(hash, compiled);
}

function bestInChain(head: CompiledRule | null, path: string, best: CompiledRule | null): CompiledRule | null {
  for (let candidate = head; candidate !== null; candidate = candidate.next) {
    if ((best === null || beats(candidate, best)) && robotsRuleMatches(candidate, path)) best = candidate;
  }
  return best;
}

/**
 * The rules of one crawler, indexed so a URL is checked against the few rules that can match it,
 * not against all of them (a 500 KiB file holds ~15,000 rules). Every rule is filed under a literal
 * the path must contain: its literal prefix when that has 2+ characters, else its longest other
 * piece (`/*?sessionid=` under `?sessionid=`). A path's prefixes and substrings are hashed
 * incrementally, so a lookup costs O(path length × distinct key lengths) plus the candidates' checks.
 * Owns its CompiledRule objects: each is filed in exactly one index.
 */
export class RobotsRuleIndex {
  private readonly prefixes: Buckets = new Map();
  private readonly pieces: Buckets = new Map();
  /** Rules with no useful literal (`/`, `*`, `/$`...): always checked, as one chain. */
  private always: CompiledRule | null = null;
  private readonly prefixLengths: number[];
  private readonly pieceLengths: number[];
  private readonly powers: Int32Array;
  private readonly disallowsAll: boolean;
  private queries = 0;

  constructor(rules: readonly CompiledRule[]) {
    let maxPiece = 0;
    let disallowsAll = false;
    for (const compiled of rules) {
      if (!compiled.allow && compiled.matchesAll) disallowsAll = true;
      if (compiled.first.length >= 2) {
        file(this.prefixes, compiled.first, compiled);
        continue;
      }
      let longest = '';
      if (compiled.rest !== null) for (const piece of compiled.rest) if (piece.length > longest.length) longest = piece;
      if (longest.length === 0) {
        compiled.next = this.always;
        this.always = compiled;
        continue;
      }
      file(this.pieces, longest, compiled);
      if (longest.length > maxPiece) maxPiece = longest.length;
    }
    this.disallowsAll = disallowsAll;
    this.prefixLengths = [...this.prefixes.keys()].sort((a, b) => a - b);
    this.pieceLengths = [...this.pieces.keys()].sort((a, b) => a - b);
    this.powers = new Int32Array(maxPiece + 1);
    this.powers[0] = 1;
    for (let i = 1; i <= maxPiece; i++) this.powers[i] = Math.imul(this.powers[i - 1], BASE);
  }

  /** Is there a disallow rule that matches every path (`Disallow: /`)? */
  hasDisallowAll(): boolean {
    return this.disallowsAll;
  }

  /** The deciding rule for a canonical path, or null when none matches. */
  bestMatch(path: string): CompiledRule | null {
    const query = ++this.queries;
    const length = path.length;
    // prefixHash[k] = hash of path.slice(0, k), before masking
    const prefixHash = new Int32Array(length + 1);
    for (let i = 0; i < length; i++) prefixHash[i + 1] = (Math.imul(prefixHash[i], BASE) + path.charCodeAt(i)) | 0;

    let best = bestInChain(this.always, path, null);
    for (const keyLength of this.prefixLengths) {
      if (keyLength > length) break;
      const head = this.prefixes.get(keyLength)?.get(prefixHash[keyLength] & SMI_MASK);
      if (head !== undefined) best = bestInChain(head, path, best);
    }
    for (const keyLength of this.pieceLengths) {
      if (keyLength > length) break;
      const byHash = this.pieces.get(keyLength);
      if (byHash === undefined) continue;
      const power = this.powers[keyLength];
      for (let start = 0; start + keyLength <= length; start++) {
        const head = byHash.get((prefixHash[start + keyLength] - Math.imul(prefixHash[start], power)) & SMI_MASK);
        // A piece can occur several times in a path: check its bucket once.
        if (head === undefined || head.visited === query) continue;
        head.visited = query;
        best = bestInChain(head, path, best);
      }
    }
    return best;
  }
}
