import { Parser, type Handler, type ParserOptions } from 'htmlparser2';

/**
 * How deep elements nest before the parser flattens them: 512, as Chromium's HTML tree builder does
 * (kMaximumHTMLParserDOMTreeDepth): an element opened that deep is added as a sibling (opened and closed at once), so
 * the facts and the tree extractors read are the page as a browser builds it.
 */
export const MAX_ELEMENT_DEPTH = 512;

/**
 * htmlparser2's Parser with nesting capped at MAX_ELEMENT_DEPTH. Its open-element stack is an array it unshifts and
 * shifts, so each element costs time in proportion to its depth: a page of 100,000 nested `div`s took about 5 s to
 * parse (quadratic: 10,000 took 0.13 s). Capped, an element costs at most 512 steps, and the same page parses in
 * linear time. Each element past the cap is reported to the handler like a void element (its open tag with its
 * attributes, then an implied close), and its end tag, when it comes, is swallowed; `flattened` counts them.
 *
 * The cap hooks `isVoidElement`, the parser's documented extension point, which it asks once when a tag opens, once
 * as the open tag ends (to close a void element) and once for an end tag; the phase is known from the tokenizer
 * callbacks around those calls. It reads the length of the parser's open-element stack (a private field of
 * htmlparser2 12, pinned in package.json; test/unit/seo/depth-capped-parser.test.ts fails if that changes).
 */
export class DepthCappedParser extends Parser {
  /** Elements opened past the cap (flattened into siblings). */
  flattened = 0;
  /** End tags still owed by flattened elements, by name: each is swallowed rather than closing an ancestor. */
  private readonly owed = new Map<string, number>();
  /** Which tokenizer callback is running: an open tag's name, an end tag, or neither (an open tag's end). */
  private phase: 'open' | 'close' | null = null;
  /** The tag being opened flat: the end of its open tag closes it at once. */
  private flattening: string | null = null;

  constructor(cbs: Partial<Handler> | null, options?: ParserOptions) {
    super(cbs, options);
  }

  private get depth(): number {
    return (this as unknown as { stack: readonly string[] }).stack.length;
  }

  override onopentagname(start: number, endIndex: number): void {
    this.phase = 'open';
    this.flattening = null;
    try {
      super.onopentagname(start, endIndex);
    } finally {
      this.phase = null;
    }
  }

  override onclosetag(start: number, endIndex: number): void {
    this.phase = 'close';
    try {
      super.onclosetag(start, endIndex);
    } finally {
      this.phase = null;
    }
  }

  override onselfclosingtag(endIndex: number): void {
    const flat = this.flattening;
    if (flat !== null && this.isInForeignContext()) {
      // `<path/>` in SVG closes itself: no end tag is owed, and the parser's own close must not pop an ancestor.
      this.owe(flat, -1);
      this.onopentagend(endIndex);
      return;
    }
    super.onselfclosingtag(endIndex);
  }

  protected override isVoidElement(name: string): boolean {
    if (super.isVoidElement(name)) return true;
    if (this.phase === 'open') {
      if (this.depth < MAX_ELEMENT_DEPTH) return false;
      this.flattening = name;
      this.flattened++;
      this.owe(name, 1);
      return true;
    }
    if (this.phase === 'close') {
      // An end tag a flattened element owes: swallowed (a "void" end tag is ignored by the parser).
      if (!this.owed.get(name)) return false;
      this.owe(name, -1);
      return true;
    }
    // The end of an open tag: the flattened one is closed at once, like a void element.
    if (name === this.flattening) {
      this.flattening = null;
      return true;
    }
    return false;
  }

  private owe(name: string, delta: number): void {
    const n = (this.owed.get(name) ?? 0) + delta;
    if (n > 0) this.owed.set(name, n);
    else this.owed.delete(name);
  }
}
