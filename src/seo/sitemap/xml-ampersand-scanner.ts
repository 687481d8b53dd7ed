/**
 * Finds the first `&` that does not start a predefined entity or character reference.
 * saxes reads an unescaped `&` as an entity up to the next `;`, possibly lines later, and reports a
 * misleading error there; this scan lets the validator stop exactly at the `&` with a clear message.
 * Text is fed in chunks; CDATA sections, comments and processing instructions are skipped.
 */

const enum ScanState {
  Markup,
  Cdata,
  Comment,
  Pi,
}

const REFERENCE = /&(?:#[0-9]+|#x[0-9a-fA-F]+|([A-Za-z_:\u00c0-\uffff][\w.:\-\u00b7-\uffff]*));/y;
/** What an unfinished reference at the end of a chunk may look like. */
const REFERENCE_PREFIX = /^&(?:#x?[0-9a-fA-F]*|[A-Za-z_:\u00c0-\uffff][\w.:\-\u00b7-\uffff]*)?$/;
const PREDEFINED = new Set(['amp', 'lt', 'gt', 'apos', 'quot']);
/** Any '&' that does not start a predefined entity or a character reference. */
const SUSPICIOUS = /&(?!(?:amp|lt|gt|apos|quot|#[0-9]+|#x[0-9a-fA-F]+);)/g;
const LONGEST_REFERENCE = 64;
const MARKUP_OPENERS = ['<![CDATA[', '<!--', '<!DOCTYPE'];

export interface AmpersandScanResult {
  /** `text.slice(0, safeEnd)` may be parsed now; the rest must be prepended to the next chunk. */
  safeEnd: number;
  /** Offset of the faulty `&`, when one was found (then `safeEnd` equals it). */
  badAt?: number;
  /** The undefined entity name, when the `&` starts a well-formed but undefined reference. */
  undefinedEntity?: string;
}

export class XmlAmpersandScanner {
  private state = ScanState.Markup;
  /**
   * Characters of the open CDATA section, comment or PI so far (0 outside one). saxes buffers these
   * whole, so the validator stops on a huge one to bound memory.
   */
  sectionChars = 0;
  /** A DOCTYPE may declare entities of its own: leave the checks to the parser from then on. */
  private disabled = false;

  scan(text: string, final: boolean): AmpersandScanResult {
    const len = text.length;
    if (this.disabled) return { safeEnd: len };
    let i = 0;
    // Fast path for chunks of plain markup (nearly all): one native regex pass instead of a JS
    // loop over every '&'; anything suspicious is settled by the exact scan below, from there.
    if (this.state === ScanState.Markup && text.indexOf('<!') === -1 && text.indexOf('<?') === -1) {
      SUSPICIOUS.lastIndex = 0;
      const suspicious = SUSPICIOUS.exec(text);
      if (suspicious === null) return { safeEnd: !final && text.charCodeAt(len - 1) === 0x3c ? len - 1 : len };
      i = suspicious.index;
    }
    // Cached positions of the next "<!" / "<?" so the scan stays linear however many '&' there are.
    let bang = -1;
    let pi = -1;
    while (i < len) {
      if (this.state !== ScanState.Markup) {
        const terminator = this.state === ScanState.Cdata ? ']]>' : this.state === ScanState.Comment ? '-->' : '?>';
        const end = text.indexOf(terminator, i);
        if (end === -1) {
          // Keep back what could be the start of a terminator split across chunks.
          const safeEnd = final ? len : Math.max(i, len - (terminator.length - 1));
          this.sectionChars += safeEnd - i;
          return { safeEnd };
        }
        this.state = ScanState.Markup;
        this.sectionChars = 0;
        i = end + terminator.length;
        continue;
      }
      if (bang < i && bang !== Infinity) bang = positionOr(text.indexOf('<!', i));
      if (pi < i && pi !== Infinity) pi = positionOr(text.indexOf('<?', i));
      const amp = positionOr(text.indexOf('&', i));
      const next = Math.min(amp, bang, pi);
      if (next === Infinity) {
        // A lone '<' at the very end may become "<!" or "<?" with the next chunk.
        return { safeEnd: !final && text.charCodeAt(len - 1) === 0x3c ? len - 1 : len };
      }
      if (next === amp) {
        // &amp; is by far the most common reference in sitemaps (query strings).
        if (text.startsWith('amp;', amp + 1)) {
          i = amp + 5;
          continue;
        }
        REFERENCE.lastIndex = amp;
        const match = REFERENCE.exec(text);
        if (match !== null) {
          if (match[1] !== undefined && !PREDEFINED.has(match[1])) {
            return { safeEnd: amp, badAt: amp, undefinedEntity: match[1] };
          }
          i = REFERENCE.lastIndex;
          continue;
        }
        if (!final && len - amp < LONGEST_REFERENCE && REFERENCE_PREFIX.test(text.slice(amp))) {
          return { safeEnd: amp };
        }
        return { safeEnd: amp, badAt: amp };
      }
      if (next === pi) {
        this.state = ScanState.Pi;
        i = pi + 2;
        continue;
      }
      const head = text.slice(bang, bang + 9);
      if (head.startsWith('<![CDATA[')) {
        this.state = ScanState.Cdata;
        i = bang + 9;
      } else if (head.startsWith('<!--')) {
        this.state = ScanState.Comment;
        i = bang + 4;
      } else if (head === '<!DOCTYPE') {
        this.disabled = true;
        return { safeEnd: len };
      } else if (!final && bang + head.length === len && MARKUP_OPENERS.some((opener) => opener.startsWith(head))) {
        return { safeEnd: bang };
      } else {
        i = bang + 2;
      }
    }
    return { safeEnd: len };
  }
}

function positionOr(index: number): number {
  return index === -1 ? Infinity : index;
}
