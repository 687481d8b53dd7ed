/*
 * Catastrophic backtracking: a JavaScript regex cannot be interrupted, so one like `(a+)+$` run over a long page
 * blocks the thread far beyond any time budget. regexHazard reads a regex's source (one that compiles) and names the
 * constructs that make backtracking exponential, so that such a regex is refused when it is saved:
 *  - nested quantifiers (star height > 1): a repeated item inside a repeated group, `(a+)+`, `(\w*\s?)*`, `(.*a){20}`
 *    (bounded repetitions inside bounded ones are allowed while the product of their maxima stays <= 100, as in
 *    `(\d{1,3}\.){3}`);
 *  - a repeated group whose alternatives can start with the same character, `(a|ab)*`, `(\w|\d)+`, `(.|\s)*`;
 *  - a group repeated more than 16 times (or without bound) whose iterations can split one text in several ways:
 *    its body can match nothing, `(a?){50}a{50}`, `(a?a?){50}b`, `(x|)+` (star height above 1 in effect: `?` is a
 *    quantifier too), or it holds an optional or variable-length part whose characters can also begin what follows
 *    it inside the body or the next iteration, `a(xx?)+y`, `(a{1,2}){50}`; `(,\s?\d)+` and `(\d{1,3}\.?){4}` pass;
 *  - backreferences, `(a*)\1`, `\k<name>`: always (the URL table's regex filter relies on it too);
 *  - a repetition of (almost) any character at the start (`.*x`, `[^<]*x`): tried from every position, quadratic.
 * It is deliberately conservative: some harmless regexes are refused too (`(<b>[^<]*</b>)+`); they can always be
 * written without the nesting, or split into two extractors. Other polynomial patterns (`a.*b.*NOPE`) are not
 * refused: the text a regex runs over is bounded instead (EXTRACTION_LIMITS.regexTextChars), which does not make
 * them cheap on every page.
 */

type Term = { node: RegexNode; min: number; max: number };
type RegexNode =
  | { k: 'atom'; source: string }
  | { k: 'zero' }
  | { k: 'backref' }
  | { k: 'group'; alts: Term[][]; lookaround: boolean };

/** Bounded repetitions nested inside each other are allowed up to this many combined iterations. */
const NESTED_BOUNDED_MAX = 100;
/**
 * A repeated group whose iterations can split one text in several ways (a body that can match nothing, or an
 * optional or variable-length part that can also begin what follows it) is allowed up to this many iterations: at
 * most 2^16 ways to try, which stays within milliseconds.
 */
const AMBIGUOUS_REPEAT_MAX = 4;

/**
 * Characters the first-character sets are sampled on: ASCII, and a few others that classes (\s, \w, ., ranges)
 * treat differently.
 */
const SAMPLE = [
  ...Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)),
  '\u00a0',
  '\u00e9',
  '\u00c9',
  '\u017f',
  '\u2028',
  '\u3000',
  '\u4e2d',
  '\ufeff',
  '\ud83d',
];

class RegexReader {
  private i = 0;
  constructor(private readonly src: string) {}

  read(): Term[][] {
    const alts = this.alternatives();
    return alts;
  }

  private alternatives(): Term[][] {
    const alts: Term[][] = [[]];
    while (this.i < this.src.length && this.src[this.i] !== ')') {
      if (this.src[this.i] === '|') {
        this.i++;
        alts.push([]);
        continue;
      }
      alts[alts.length - 1].push(this.term());
    }
    return alts;
  }

  private term(): Term {
    const node = this.atom();
    const quantified = this.quantifier();
    return { node, ...(quantified ?? { min: 1, max: 1 }) };
  }

  private atom(): RegexNode {
    const { src } = this;
    const start = this.i;
    const c = src[this.i];
    if (c === '(') {
      let lookaround = false;
      this.i++;
      if (src[this.i] === '?') {
        const head = src.slice(this.i, this.i + 3);
        if (head.startsWith('?=') || head.startsWith('?!') || head === '?<=' || head === '?<!') {
          lookaround = true;
          this.i += head.startsWith('?<') ? 3 : 2;
        } else if (head.startsWith('?:')) this.i += 2;
        else if (head.startsWith('?<')) this.i = src.indexOf('>', this.i) + 1;
        else this.i++;
      }
      const alts = this.alternatives();
      this.i++; // ')'
      return { k: 'group', alts, lookaround };
    }
    if (c === '[') {
      this.i++;
      if (src[this.i] === '^') this.i++;
      while (this.i < src.length && src[this.i] !== ']') this.i += src[this.i] === '\\' ? 2 : 1;
      this.i++;
      return { k: 'atom', source: src.slice(start, this.i) };
    }
    if (c === '^' || c === '$') {
      this.i++;
      return { k: 'zero' };
    }
    if (c === '\\') {
      const e = src[this.i + 1];
      this.i += 2;
      if (e === 'b' || e === 'B') return { k: 'zero' };
      if (/[1-9]/.test(e)) {
        while (/\d/.test(src[this.i] ?? '')) this.i++;
        return { k: 'backref' };
      }
      if (e === 'k' && src[this.i] === '<') {
        this.i = src.indexOf('>', this.i) + 1;
        return { k: 'backref' };
      }
      if (e === 'x') this.i += 2;
      else if (e === 'u') this.i += src[this.i] === '{' ? src.indexOf('}', this.i) + 1 - this.i : 4;
      else if (e === 'c') this.i += 1;
      else if (e === '0') while (/[0-7]/.test(src[this.i] ?? '')) this.i++;
      return { k: 'atom', source: src.slice(start, this.i) };
    }
    this.i++;
    return { k: 'atom', source: c };
  }

  private quantifier(): { min: number; max: number } | null {
    const rest = this.src.slice(this.i, this.i + 40);
    let q: { min: number; max: number } | null = null;
    let length = 1;
    if (rest[0] === '*') q = { min: 0, max: Infinity };
    else if (rest[0] === '+') q = { min: 1, max: Infinity };
    else if (rest[0] === '?') q = { min: 0, max: 1 };
    else {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(rest);
      if (m) {
        const min = Number(m[1]);
        q = { min, max: m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]) };
        length = m[0].length;
      }
    }
    if (!q) return null;
    this.i += length;
    if (this.src[this.i] === '?') this.i++; // lazy: the same backtracking
    return q;
  }
}

/** The sampled characters an atom (a literal, an escape, a class, `.`) matches, as a bit set over SAMPLE. */
function atomChars(source: string, flags: string): boolean[] {
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${source})$`, flags);
  } catch {
    return SAMPLE.map(() => true);
  }
  return SAMPLE.map((ch) => re.test(ch));
}

interface First {
  chars: boolean[];
  /** The item can match the empty string: what follows it can start the match too. */
  nullable: boolean;
}

function firstOfSequence(terms: readonly Term[], flags: string): First {
  const chars = SAMPLE.map(() => false);
  for (const term of terms) {
    const f = firstOfTerm(term, flags);
    f.chars.forEach((on, i) => (chars[i] ||= on));
    if (!f.nullable) return { chars, nullable: false };
  }
  return { chars, nullable: true };
}

function firstOfTerm(term: Term, flags: string): First {
  const { node } = term;
  let f: First;
  if (node.k === 'atom') f = { chars: atomChars(node.source, flags), nullable: false };
  else if (node.k === 'group' && !node.lookaround) {
    const chars = SAMPLE.map(() => false);
    let nullable = false;
    for (const alt of node.alts) {
      const a = firstOfSequence(alt, flags);
      a.chars.forEach((on, i) => (chars[i] ||= on));
      nullable ||= a.nullable;
    }
    f = { chars, nullable };
  } else if (node.k === 'backref') f = { chars: SAMPLE.map(() => true), nullable: true };
  else f = { chars: SAMPLE.map(() => false), nullable: true };
  return term.min === 0 ? { chars: f.chars, nullable: true } : f;
}

const describeChar = (ch: string): string =>
  /[\x21-\x7e]/.test(ch) ? `"${ch}"` : `U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/** The repetition an item is inside of: its combined maximum, or null outside any repeated group. */
type Outer = { max: number } | null;

const overlap = (a: readonly boolean[], b: readonly boolean[]): number => SAMPLE.findIndex((_, i) => a[i] && b[i]);

/**
 * Whether a sequence holds an item of variable length (optional, `a?`, or a range, `a{1,2}`) whose characters can
 * also begin what follows it (`after`: what can follow the sequence): one text then splits between the two in more
 * than one way, as `xx` in `(?:xx?)+` is one iteration or two. Groups matched once are looked into.
 */
function splitsAmbiguously(terms: readonly Term[], after: readonly boolean[], flags: string): boolean {
  for (let i = 0; i < terms.length; i++) {
    const term = terms[i];
    const rest = firstOfSequence(terms.slice(i + 1), flags);
    const follow = rest.nullable ? rest.chars.map((on, k) => on || after[k]) : rest.chars;
    if (term.min < term.max && overlap(firstOfTerm(term, flags).chars, follow) >= 0) return true;
    const { node } = term;
    if (node.k === 'group' && !node.lookaround && term.max <= 1)
      if (node.alts.some((alt) => splitsAmbiguously(alt, follow, flags))) return true;
  }
  return false;
}

function check(terms: readonly Term[], outer: Outer, flags: string): string | null {
  for (const term of terms) {
    const { node } = term;
    if (node.k === 'backref') return 'backreferences (\\1, \\k<name>) can make matching take exponential time';
    const repeats = term.max > 1;
    // A fixed count (`\d{3}`) is a sequence, not a choice: `(,\d{3})*` nests no quantifier.
    if (repeats && outer && term.min !== term.max) {
      const product = outer.max * term.max;
      if (!Number.isFinite(product) || product > NESTED_BOUNDED_MAX)
        return (
          'nested quantifiers (a repeated item inside a repeated group, as in (a+)+) can make matching take ' +
          'exponential time'
        );
    }
    if (node.k !== 'group') continue;
    if (repeats && node.alts.length > 1) {
      const firsts = node.alts.map((alt) => firstOfSequence(alt, flags));
      for (let a = 0; a < firsts.length; a++)
        for (let b = a + 1; b < firsts.length; b++) {
          const shared = SAMPLE.findIndex((_, i) => firsts[a].chars[i] && firsts[b].chars[i]);
          if (shared >= 0)
            return (
              `a repeated group whose alternatives ${a + 1} and ${b + 1} can both start with ` +
              `${describeChar(SAMPLE[shared])} (as in (a|ab)*) can make matching take exponential time`
            );
        }
    }
    const inner: Outer = repeats ? { max: (outer?.max ?? 1) * term.max } : outer;
    for (const alt of node.alts) {
      const problem = check(alt, inner, flags);
      if (problem) return problem;
    }
    // Checked after what is inside, so that the more specific reason above (as for (a*)*) is given first.
    const iterations = (outer?.max ?? 1) * term.max;
    if (repeats && !node.lookaround && iterations > AMBIGUOUS_REPEAT_MAX) {
      const body = firstOfTerm({ node, min: 1, max: 1 }, flags);
      if (body.nullable)
        return (
          'a group that can match nothing, repeated (as in (a?){50} or (a?a?)*), can make matching take ' +
          'exponential time: make each repetition match at least one character'
        );
      if (node.alts.some((alt) => splitsAmbiguously(alt, body.chars, flags)))
        return (
          'a repeated group with an optional or variable part that can also begin what follows it (as in (xx?)+, ' +
          'where "xx" is one repetition or two) can make matching take exponential time'
        );
    }
  }
  return null;
}

/** Whether a sequence can start with an unbounded repetition of a class matching most characters (`.*`, `[^x]+`). */
function broadLeadingRepeat(terms: readonly Term[], flags: string): boolean {
  const first = terms[0];
  if (!first) return false;
  const { node } = first;
  if (node.k === 'group' && !node.lookaround) {
    if (first.max === Infinity && firstOfTerm(first, flags).chars.filter(Boolean).length > SAMPLE.length / 2)
      return true;
    return node.alts.some((alt) => broadLeadingRepeat(alt, flags));
  }
  return (
    node.k === 'atom' &&
    first.max === Infinity &&
    atomChars(node.source, flags).filter(Boolean).length > SAMPLE.length / 2
  );
}

/**
 * Why a regex (a source that compiles with `flags`) can backtrack catastrophically, or null. `flags` as the
 * evaluator compiles it (`s`, and `i` when case-insensitive); first characters are compared under them.
 */
export function regexHazard(source: string, flags = 's'): string | null {
  const testFlags = flags.replace(/[gy]/g, '');
  const alts = new RegexReader(source).read();
  for (const alt of alts) {
    const problem = check(alt, null, testFlags);
    if (problem) return problem;
  }
  if (alts.some((alt) => broadLeadingRepeat(alt, testFlags)))
    return (
      'a repetition of (almost) any character at the start (as in .*x or [^<]*x) is retried from every position ' +
      'of the page: matching can take quadratic time; start with a literal or anchor it with ^'
    );
  return null;
}
