import { SaxesParser, type SaxesTagPlain, type XMLDecl } from 'saxes';
import { IssueList } from './sitemap-issues.js';
import { readSitemapText, SitemapInputError, type SitemapInputInfo } from './sitemap-input.js';
import { LocChecker } from './sitemap-loc-checker.js';
import { UrlFingerprintSet } from './url-fingerprint-set.js';
import {
  SITEMAP_MAX_BYTES,
  SITEMAP_MAX_ENTRIES,
  SITEMAP_NAMESPACE,
  type SitemapAnalysis,
  type SitemapEntry,
  type SitemapIndexEntry,
  type SitemapInput,
  type SitemapIssueCode,
  type SitemapType,
  type SitemapValidationOptions,
} from './sitemap.types.js';
import { w3cDatetimeInstant } from './w3c-datetime.js';
import { XmlAmpersandScanner } from './xml-ampersand-scanner.js';

const enum Role {
  Root,
  Entry,
  Loc,
  Lastmod,
  Changefreq,
  Priority,
  /** Extension elements (image:, news:, xhtml:...) and anything below them: skipped without checks. */
  Ignored,
}

const FIELD_NAMES = ['', '', 'loc', 'lastmod', 'changefreq', 'priority'];
const CHANGEFREQS = new Set(['always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never']);
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
/** Field text kept per element; anything longer is invalid anyway (loc max 2,048). */
const FIELD_TEXT_CAP = 8_192;
/** saxes buffers a text node, comment or CDATA section whole: past this, stop rather than hold megabytes. */
const MAX_NODE_CHARS = 1_048_576;
const DUPLICATES_LISTED = 20;

interface ShadowedBinding {
  depth: number;
  prefix: string;
  previous: string | undefined;
}

/**
 * Flat copy of a string. V8 substrings of 13+ characters keep the whole 64 KiB parser chunk alive
 * (retained entries would pin the document), and text with entities arrives as a slow-to-read rope.
 */
function detach(value: string): string {
  return value.length < 13 ? value : (' ' + value).slice(1);
}

function clip(value: string): string {
  return value.length > 80 ? `${value.slice(0, 77)}...` : value;
}

/**
 * Streaming sitemaps.org 0.9 validator: one pass of saxes events, no DOM. Memory is bounded by the
 * issue caps, the sample, the duplicate fingerprints (at most `maxUrls`), and for an index the
 * child sitemap list (at most `maxUrls`).
 */
class SitemapValidator {
  private readonly issueCounts: Partial<Record<SitemapIssueCode, number>> = {};
  readonly errors: IssueList;
  readonly warnings: IssueList;
  stopped = false;

  private readonly parser = new SaxesParser({ xmlns: false, position: true });
  private readonly scanner = new XmlAmpersandScanner();
  private readonly locs: LocChecker;
  private readonly maxUrls: number;
  private readonly sampleSize: number;
  private readonly nowMs: number;
  private readonly onUrl: SitemapValidationOptions['onUrl'];
  private readonly onSitemap: SitemapValidationOptions['onSitemap'];

  private carry = '';
  private sawContent = false;
  private type: SitemapType | null = null;
  private entryName = '';
  /** Namespace read as the sitemap namespace: the right one, or the root's wrong one so checks go on. */
  private rootUri: string | undefined;
  private readonly roles: Role[] = [];
  private readonly bindings = new Map<string, string>([['xml', 'http://www.w3.org/XML/1998/namespace']]);
  /** `bindings.get('')`, read for every element. */
  private defaultUri: string | undefined;
  private readonly shadowed: ShadowedBinding[] = [];
  /** Prefix, URI pairs declared on the tag being opened. */
  private readonly declarations: string[] = [];

  private count = 0;
  private entryLine = 0;
  private loc: string | null = null;
  private locUsable = false;
  private lastmod: string | null = null;
  private changefreq: string | null = null;
  private priority: number | null = null;
  /** Bit per field role already seen in the current entry. */
  private fieldsSeen = 0;
  /** The open field repeats one seen earlier in the entry: checked, but the first value is kept. */
  private fieldRepeat = false;
  private fieldText = '';
  private fieldLength = 0;
  private fieldLine = 0;
  private fieldName = '';
  /** Inside loc/lastmod/changefreq/priority: their text (and CDATA) is collected. */
  private capturing = false;
  /** Fields opened so far, and characters fed since the open field's chunk: guards against huge text. */
  private fieldsOpened = 0;
  private fieldRun = 0;

  private readonly seen = new UrlFingerprintSet();
  private duplicateCount = 0;
  private readonly sample: SitemapEntry[] = [];
  private readonly sitemaps: SitemapIndexEntry[] = [];
  private pendingUrls: SitemapEntry[] = [];
  private pendingSitemaps: SitemapIndexEntry[] = [];
  private lastLastmod = '';
  private lastLastmodResult: number | string = w3cDatetimeInstant('');

  constructor(options: SitemapValidationOptions) {
    const maxIssues = options.maxIssues ?? 100;
    this.errors = new IssueList(maxIssues, this.issueCounts);
    this.warnings = new IssueList(maxIssues, this.issueCounts);
    this.maxUrls = options.maxUrls ?? SITEMAP_MAX_ENTRIES;
    this.sampleSize = options.sampleSize ?? 20;
    this.nowMs = (options.now ?? new Date()).getTime();
    this.onUrl = options.onUrl;
    this.onSitemap = options.onSitemap;
    // Throws on a malformed baseUrl: that is the caller's bug, not a finding about the sitemap.
    this.locs = new LocChecker(options.baseUrl);

    const parser = this.parser;
    parser.on('xmldecl', (decl) => this.onXmlDecl(decl));
    // Namespace declarations arrive as attribute events: cheaper than scanning every tag's attributes.
    parser.on('attribute', (attribute) => {
      const name = attribute.name;
      if (name === 'xmlns' || name.startsWith('xmlns:'))
        this.declarations.push(name === 'xmlns' ? '' : name.slice(6), attribute.value);
    });
    parser.on('opentag', (tag) => this.onOpen(tag));
    parser.on('closetag', () => this.onClose());
    parser.on('cdata', (text) => {
      if (this.capturing) this.onTextHandler(text);
    });
    parser.on('error', (error) => this.onSyntaxError(error));
  }

  private readonly onTextHandler = (text: string): void => {
    this.fieldLength += text.length;
    if (this.fieldText.length < FIELD_TEXT_CAP) this.fieldText += text;
  };

  /** Feeds decoded text; `final` flushes what the ampersand scan held back. */
  write(chunk: string, final: boolean): void {
    if (this.stopped) return;
    if (!this.sawContent && !this.checkStart(chunk)) return;
    const text = this.carry === '' ? chunk : this.carry + chunk;
    const scan = this.scanner.scan(text, final);
    this.carry = scan.safeEnd === text.length ? '' : text.slice(scan.safeEnd);
    this.feed(scan.safeEnd === text.length ? text : text.slice(0, scan.safeEnd));
    if (this.scanner.sectionChars > MAX_NODE_CHARS && !this.stopped) {
      this.fail(
        'NODE_TOO_LARGE',
        'A comment, CDATA section or processing instruction is longer than 1,048,576 characters; parsing stopped',
      );
    }
    if (scan.badAt !== undefined && !this.stopped) {
      if (scan.undefinedEntity !== undefined) {
        this.fail(
          'UNDEFINED_ENTITY',
          `XML syntax error: undefined entity "&${scan.undefinedEntity};"; XML only defines &amp; &lt; ` +
            `&gt; &apos; &quot; (write other characters as they are, or as &#NNN;)`,
        );
      } else {
        this.fail(
          'UNESCAPED_AMPERSAND',
          'XML syntax error: unescaped "&"; write it as &amp; (URLs in a sitemap must be entity-escaped)',
        );
      }
    }
  }

  end(empty: boolean): void {
    if (this.stopped) return;
    if (empty) {
      this.fail('EMPTY_INPUT', 'The sitemap is empty');
      return;
    }
    this.write('', true);
    if (this.stopped) return;
    try {
      this.parser.close();
    } catch (error) {
      this.onSyntaxError(error as Error);
    }
    if (this.stopped || this.type === null) return;
    if (this.count === 0) {
      this.warnings.add(
        'EMPTY_SITEMAP',
        this.type === 'urlset' ? 'The urlset has no <url> entries' : 'The sitemap index has no <sitemap> entries',
      );
    }
  }

  /** Records a fatal error at the current parser line and stops reading. */
  fail(code: SitemapIssueCode, message: string, line = this.parser.line): void {
    this.errors.add(code, message, line);
    this.stopped = true;
    this.parser.off('text');
  }

  /** Hands completed entries to the callbacks, awaiting them: the caller's backpressure. */
  async flush(): Promise<void> {
    if (this.pendingUrls.length !== 0 && this.onUrl !== undefined) {
      const entries = this.pendingUrls;
      this.pendingUrls = [];
      for (const entry of entries) await this.onUrl(entry);
    }
    if (this.pendingSitemaps.length !== 0 && this.onSitemap !== undefined) {
      const entries = this.pendingSitemaps;
      this.pendingSitemaps = [];
      for (const entry of entries) await this.onSitemap(entry);
    }
  }

  result(info: SitemapInputInfo): SitemapAnalysis {
    if (this.duplicateCount > DUPLICATES_LISTED) {
      const more = this.duplicateCount - DUPLICATES_LISTED;
      this.warnings.add(
        'LOC_DUPLICATE',
        `${more} more duplicate <loc> value${more === 1 ? '' : 's'} not listed (${this.duplicateCount} in all)`,
      );
    }
    return {
      valid: this.errors.count === 0,
      type: this.type,
      urlCount: this.count,
      ...(this.type === 'sitemapindex' ? { sitemaps: this.sitemaps } : {}),
      errors: this.errors.items,
      warnings: this.warnings.items,
      errorCount: this.errors.count,
      warningCount: this.warnings.count,
      issueCounts: this.issueCounts,
      sample: this.sample,
      duplicateCount: this.duplicateCount,
      sizeBytes: info.sizeBytes,
      compressed: info.compressed,
      truncated: this.stopped,
    };
  }

  /** Rejects text that cannot be XML before saxes turns it into a confusing error. */
  private checkStart(chunk: string): boolean {
    const match = /\S/.exec(chunk);
    if (match === null) return true;
    this.sawContent = true;
    const first = match[0].charCodeAt(0);
    if (first === 0x3c) return true;
    // Feed the leading whitespace so the error carries the line of the offending character.
    this.feed(chunk.slice(0, match.index));
    if (first < 0x20 || first === 0xfffd || first === 0x7f) {
      this.fail('BINARY_CONTENT', 'The content is binary data, not an XML sitemap');
    } else {
      const start = chunk.slice(match.index, match.index + 40).replace(/\s+/g, ' ');
      this.fail('NOT_XML', `The content is not XML: it starts with "${start}" instead of "<?xml" or "<urlset"`);
    }
    return false;
  }

  private feed(text: string): void {
    if (text === '') return;
    const opened = this.fieldsOpened;
    const wasCapturing = this.capturing;
    try {
      this.parser.write(text);
    } catch (error) {
      // saxes throws on a few internal states instead of reporting them.
      this.onSyntaxError(error as Error);
    }
    if (!this.capturing) return;
    // Count only whole chunks spent inside one field: a new field in this chunk restarts the count.
    this.fieldRun = wasCapturing && opened === this.fieldsOpened ? this.fieldRun + text.length : 0;
    if (this.fieldRun > MAX_NODE_CHARS && !this.stopped) {
      this.fail(
        'NODE_TOO_LARGE',
        `<${this.fieldName}> is longer than 1,048,576 characters; parsing stopped`,
        this.fieldLine,
      );
    }
  }

  private onSyntaxError(error: Error): void {
    if (this.stopped) return;
    const message = error.message.replace(/^\d+:\d+: /, '');
    if (message === 'document must contain a root element.') {
      this.fail('NOT_XML', 'The document has no root element');
    } else {
      this.fail('XML_SYNTAX', `XML syntax error: ${message}`);
    }
  }

  private onXmlDecl(decl: XMLDecl): void {
    const encoding = decl.encoding;
    if (encoding !== undefined && !/^utf-?8$/i.test(encoding)) {
      this.errors.add(
        'UNSUPPORTED_ENCODING',
        `The XML declaration says encoding="${clip(encoding)}"; the protocol requires UTF-8`,
        this.parser.line,
      );
    }
  }

  private onOpen(tag: SaxesTagPlain): void {
    const declarations = this.declarations;
    if (this.stopped) {
      declarations.length = 0;
      return;
    }
    const roles = this.roles;
    const depth = roles.length;
    const parent = depth === 0 ? -1 : roles[depth - 1];
    if (parent === Role.Ignored) {
      declarations.length = 0;
      roles.push(Role.Ignored);
      return;
    }
    const line = this.parser.line;
    if (declarations.length !== 0) {
      for (let i = 0; i < declarations.length; i += 2) this.declare(declarations[i], declarations[i + 1], depth);
      declarations.length = 0;
    }
    const name = tag.name;
    const colon = name.indexOf(':');
    let uri: string | undefined;
    let local = name;
    if (colon === -1) {
      uri = this.defaultUri;
    } else {
      const prefix = name.slice(0, colon);
      local = name.slice(colon + 1);
      uri = this.bindings.get(prefix);
      if (uri === undefined)
        this.errors.add(
          'UNBOUND_PREFIX',
          `Namespace prefix "${clip(prefix)}" of <${clip(name)}> is not declared`,
          line,
        );
    }

    if (parent === -1) {
      this.openRoot(name, local, uri, line);
    } else if (parent === Role.Root) {
      if (uri === this.rootUri && local === this.entryName) {
        this.openEntry(line);
        roles.push(Role.Entry);
      } else {
        if (uri === this.rootUri) this.unknownElement(name, local, line);
        roles.push(Role.Ignored);
      }
    } else if (parent === Role.Entry) {
      roles.push(uri === this.rootUri ? this.openField(name, local, line) : Role.Ignored);
    } else {
      this.warnings.add('UNKNOWN_ELEMENT', `Unexpected element <${clip(name)}> inside <${FIELD_NAMES[parent]}>`, line);
      roles.push(Role.Ignored);
    }
  }

  private onClose(): void {
    if (this.stopped) return;
    const role = this.roles.pop();
    const depth = this.roles.length;
    if (this.shadowed.length !== 0) this.undeclare(depth);
    switch (role) {
      case Role.Loc:
      case Role.Lastmod:
      case Role.Changefreq:
      case Role.Priority:
        this.closeField(role);
        break;
      case Role.Entry:
        this.closeEntry();
        break;
      default:
    }
  }

  private declare(prefix: string, uri: string, depth: number): void {
    this.shadowed.push({ depth, prefix, previous: this.bindings.get(prefix) });
    // xmlns="" undeclares the default namespace.
    if (uri === '' && prefix === '') this.bindings.delete('');
    else this.bindings.set(prefix, uri);
    this.defaultUri = this.bindings.get('');
  }

  private undeclare(depth: number): void {
    const shadowed = this.shadowed;
    while (shadowed.length !== 0 && shadowed[shadowed.length - 1].depth === depth) {
      const { prefix, previous } = shadowed.pop()!;
      if (previous === undefined) this.bindings.delete(prefix);
      else this.bindings.set(prefix, previous);
    }
    this.defaultUri = this.bindings.get('');
  }

  private openRoot(name: string, local: string, uri: string | undefined, line: number): void {
    if (local !== 'urlset' && local !== 'sitemapindex') {
      const lower = local.toLowerCase();
      let message = `The root element is <${clip(name)}>; a sitemap must start with <urlset> or <sitemapindex>`;
      if (lower === 'html') message = 'The root element is <html>: this is an HTML page, not an XML sitemap';
      else if (lower === 'rss' || lower === 'feed')
        message =
          `The root element is <${clip(name)}>: this is an RSS/Atom feed, not a sitemaps.org <urlset> or ` +
          `<sitemapindex>`;
      this.errors.add('INVALID_ROOT', message, line);
      this.stopped = true;
      return;
    }
    this.type = local;
    this.entryName = local === 'urlset' ? 'url' : 'sitemap';
    this.rootUri = uri;
    this.roles.push(Role.Root);
    if (uri === SITEMAP_NAMESPACE) return;
    this.errors.add(
      'WRONG_NAMESPACE',
      uri === undefined
        ? `<${clip(name)}> has no namespace; add xmlns="${SITEMAP_NAMESPACE}"`
        : `<${clip(name)}> is in namespace "${clip(uri)}"; it must be exactly "${SITEMAP_NAMESPACE}"`,
      line,
    );
  }

  private openEntry(line: number): void {
    this.count++;
    if (this.count === this.maxUrls + 1) {
      this.errors.add(
        'TOO_MANY_ENTRIES',
        `More than ${this.maxUrls.toLocaleString('en-US')} <${this.entryName}> entries; the protocol ` +
          `allows at most 50,000 per file (split it and list the parts in a sitemap index)`,
        line,
      );
    }
    this.entryLine = line;
    this.loc = null;
    this.locUsable = false;
    this.lastmod = null;
    this.changefreq = null;
    this.priority = null;
    this.fieldsSeen = 0;
  }

  private openField(name: string, local: string, line: number): Role {
    let role: Role;
    if (local === 'loc') role = Role.Loc;
    else if (local === 'lastmod') role = Role.Lastmod;
    else if (this.type === 'urlset' && local === 'changefreq') role = Role.Changefreq;
    else if (this.type === 'urlset' && local === 'priority') role = Role.Priority;
    else {
      this.unknownElement(name, local, line);
      return Role.Ignored;
    }
    const bit = 1 << role;
    this.fieldRepeat = (this.fieldsSeen & bit) !== 0;
    if (this.fieldRepeat) {
      if (role === Role.Loc)
        this.errors.add('LOC_MULTIPLE', `<${this.entryName}> has more than one <loc>; exactly one is allowed`, line);
      else
        this.warnings.add(
          'DUPLICATE_FIELD',
          `<${this.entryName}> has more than one <${local}>; the first one is used`,
          line,
        );
    }
    this.fieldsSeen |= bit;
    this.fieldText = '';
    this.fieldLength = 0;
    this.fieldLine = line;
    this.fieldName = local;
    this.fieldsOpened++;
    this.parser.on('text', this.onTextHandler);
    this.capturing = true;
    return role;
  }

  private unknownElement(name: string, local: string, line: number): void {
    const where = this.roles.length === 1 ? this.type : this.entryName;
    let hint = '';
    if (this.type === 'urlset' && local === 'sitemap') hint = ' (child sitemaps belong in a <sitemapindex>)';
    else if (this.type === 'sitemapindex' && local === 'url') hint = ' (page URLs belong in a <urlset>)';
    this.warnings.add('UNKNOWN_ELEMENT', `Unknown element <${clip(name)}> in <${where}>${hint}`, line);
  }

  private closeField(role: Role): void {
    this.parser.off('text');
    this.capturing = false;
    const line = this.fieldLine;
    const value = this.fieldText.trim();
    const first = !this.fieldRepeat;
    switch (role) {
      case Role.Loc:
        if (!first) return;
        if (this.fieldLength > FIELD_TEXT_CAP) {
          this.errors.add(
            'LOC_TOO_LONG',
            `<loc> is ${this.fieldLength} characters long; the protocol allows at most 2,048`,
            line,
          );
          this.loc = value.slice(0, 80);
          return;
        }
        // saxes hands entity-bearing text over as a rope: one flat copy makes every check below cheap.
        this.loc = detach(value);
        this.locUsable = this.locs.check(this.loc, line, this.errors, this.warnings, this.type === 'urlset');
        return;
      case Role.Lastmod:
        if (first) this.lastmod = value;
        this.checkLastmod(value, line);
        return;
      case Role.Changefreq:
        if (first) this.changefreq = value;
        this.checkChangefreq(value, line);
        return;
      case Role.Priority: {
        const priority = this.checkPriority(value, line);
        if (first) this.priority = priority;
        return;
      }
      default:
    }
  }

  private checkLastmod(value: string, line: number): void {
    let result = this.lastLastmodResult;
    // Generators often stamp every entry with the same date: parse it once.
    if (value !== this.lastLastmod) {
      result = w3cDatetimeInstant(value);
      this.lastLastmod = value;
      this.lastLastmodResult = result;
    }
    if (typeof result === 'string') {
      this.errors.add('LASTMOD_INVALID', `<lastmod> "${clip(value)}" is invalid: ${result}`, line);
    } else if (result > this.nowMs) {
      this.warnings.add('LASTMOD_FUTURE', `<lastmod> ${value} is in the future`, line);
    }
  }

  private checkChangefreq(value: string, line: number): void {
    if (CHANGEFREQS.has(value)) return;
    const lower = value.toLowerCase();
    if (CHANGEFREQS.has(lower)) {
      this.warnings.add(
        'CHANGEFREQ_CASE',
        `<changefreq> "${value}" should be lowercase ("${lower}") as the protocol lists it`,
        line,
      );
    } else {
      this.errors.add(
        'CHANGEFREQ_INVALID',
        `<changefreq> "${clip(value)}" is invalid; use always, hourly, daily, weekly, monthly, yearly or never`,
        line,
      );
    }
  }

  private checkPriority(value: string, line: number): number | null {
    // Fast path for the usual "0.5" / "1.0".
    if (value.length === 3 && value.charCodeAt(1) === 0x2e) {
      const units = value.charCodeAt(0) - 48;
      const tenths = value.charCodeAt(2) - 48;
      if (units === 0 && tenths >= 0 && tenths <= 9) return tenths / 10;
      if (units === 1 && tenths === 0) return 1;
    }
    const number = DECIMAL.test(value) ? Number(value) : NaN;
    if (!(number >= 0 && number <= 1)) {
      this.errors.add('PRIORITY_INVALID', `<priority> "${clip(value)}" is invalid; use a number from 0.0 to 1.0`, line);
      return null;
    }
    return number + 0;
  }

  private closeEntry(): void {
    const line = this.entryLine;
    const loc = this.loc;
    if (loc === null) {
      this.errors.add('LOC_MISSING', `<${this.entryName}> has no <loc>; exactly one is required`, line);
      return;
    }
    const isUrlset = this.type === 'urlset';
    const inSample = this.sample.length < this.sampleSize;
    let deliver = false;
    if (this.locUsable) {
      const firstLine = this.seen.check(loc, this.locs.sharedPrefixLength(loc), line, this.count <= this.maxUrls);
      if (firstLine !== 0) {
        this.duplicateCount++;
        if (this.duplicateCount <= DUPLICATES_LISTED) {
          this.warnings.add('LOC_DUPLICATE', `Duplicate <loc> ${clip(loc)} (first listed on line ${firstLine})`, line);
        }
      } else {
        deliver = this.count <= this.maxUrls && (!isUrlset || this.onUrl !== undefined);
      }
    }
    // Entry objects only when someone keeps them: the API alone needs 20 of 50,000.
    if (!inSample && !deliver) return;
    const lastmod = this.lastmod === null ? null : detach(this.lastmod);
    if (isUrlset) {
      const changefreq = this.changefreq === null ? null : detach(this.changefreq);
      const entry: SitemapEntry = { loc, lastmod, changefreq, priority: this.priority, line };
      if (inSample) this.sample.push(entry);
      if (deliver) this.pendingUrls.push(entry);
      return;
    }
    const entry: SitemapIndexEntry = { loc, lastmod, line };
    if (inSample) this.sample.push({ loc: entry.loc, lastmod, changefreq: null, priority: null, line });
    if (deliver) {
      this.sitemaps.push(entry);
      if (this.onSitemap !== undefined) this.pendingSitemaps.push(entry);
    }
  }
}

/**
 * Validates an XML sitemap or sitemap index against sitemaps.org protocol 0.9 while streaming it.
 * Never throws for bad content (it becomes `errors`); rejects only for a malformed `baseUrl`, a
 * failing input stream, or a throwing callback.
 */
export async function validateSitemap(
  input: SitemapInput,
  options: SitemapValidationOptions = {},
): Promise<SitemapAnalysis> {
  const validator = new SitemapValidator(options);
  const info: SitemapInputInfo = { sizeBytes: 0, compressed: false };
  try {
    for await (const text of readSitemapText(input, options.maxBytes ?? SITEMAP_MAX_BYTES, info)) {
      validator.write(text, false);
      await validator.flush();
      if (validator.stopped) break;
    }
  } catch (error) {
    if (!(error instanceof SitemapInputError)) throw error;
    validator.fail(error.code, error.message);
  }
  validator.end(info.sizeBytes === 0);
  await validator.flush();
  return validator.result(info);
}
