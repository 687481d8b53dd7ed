import type { IssueList } from './sitemap-issues.js';
import { SITEMAP_MAX_LOC_LENGTH } from './sitemap.types.js';

const HTTP_PREFIX = /^(https?):\/\/([^/?#]*)/i;
const ANY_SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
// The protocol wants locs RFC 3986-escaped: whitespace, non-ASCII and these delimiters must be percent-encoded.
const UNESCAPED = /[\s<>"{}|\\^`\u0080-\uffff]/;

interface Origin {
  /** `scheme://authority` exactly as a well-formed loc would start, for the allocation-free fast path. */
  prefix: string;
  protocol: string;
  host: string;
}

function originOf(url: URL): Origin {
  return { prefix: `${url.protocol}//${url.host}`, protocol: url.protocol.slice(0, -1), host: url.host };
}

function withoutWww(host: string): string {
  return host.startsWith('www.') ? host.slice(4) : host;
}

function clip(value: string): string {
  return value.length > 80 ? `${value.slice(0, 77)}...` : value;
}

/**
 * Checks `loc` values against the protocol: absolute http(s), at most 2,048 characters, escaped,
 * and on the sitemap's protocol and host (the first valid loc's when no base URL is known).
 */
export class LocChecker {
  private origin: Origin | null = null;
  private readonly fromBase: boolean;
  /** Directory of the sitemap file: the protocol scopes a sitemap's URLs to it. */
  private readonly scopePath: string | null = null;

  constructor(baseUrl: string | undefined) {
    this.fromBase = baseUrl !== undefined;
    if (baseUrl === undefined) return;
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      throw new TypeError(`baseUrl is not a valid URL: ${clip(baseUrl)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new TypeError(`baseUrl must be an http(s) URL: ${clip(baseUrl)}`);
    }
    this.origin = originOf(url);
    const dir = url.pathname.slice(0, url.pathname.lastIndexOf('/') + 1);
    if (dir.length > 1) this.scopePath = dir;
  }

  /**
   * Records the loc's issues; returns true when the URL is usable (fit to crawl). `checkFolder`
   * applies the protocol's folder scope, which concerns page URLs, not an index's child sitemaps.
   */
  check(loc: string, line: number, errors: IssueList, warnings: IssueList, checkFolder: boolean): boolean {
    if (loc === '') {
      errors.add('LOC_EMPTY', '<loc> is empty', line);
      return false;
    }
    if (loc.length > SITEMAP_MAX_LOC_LENGTH) {
      errors.add('LOC_TOO_LONG', `<loc> is ${loc.length} characters long; the protocol allows at most 2,048`, line);
      return false;
    }
    const origin = this.origin;
    if (origin !== null && loc.startsWith(origin.prefix)) {
      const next = loc.charCodeAt(origin.prefix.length);
      // The known-good origin followed by path, query or fragment: the URL parser cannot fail on the rest.
      if (next === 0x2f || next === 0x3f || next === 0x23 || Number.isNaN(next)) {
        this.checkEscaping(loc, line, warnings);
        this.checkFolder(loc, origin.prefix.length, line, warnings, checkFolder);
        return true;
      }
    }
    const http = HTTP_PREFIX.exec(loc);
    if (http === null) {
      const scheme = ANY_SCHEME.exec(loc);
      if (scheme !== null && !loc.startsWith('//', scheme[0].length) && /^\d/.test(loc.slice(scheme[0].length))) {
        // "example.com:8080/x" parses as scheme "example.com": it is a URL without scheme.
        errors.add(
          'LOC_NOT_ABSOLUTE',
          `<loc> "${clip(loc)}" has no scheme; write the full URL with http:// or https://`,
          line,
        );
      } else if (scheme !== null) {
        errors.add(
          'LOC_BAD_SCHEME',
          `<loc> "${clip(loc)}" uses ${scheme[1]}:; only http and https URLs are allowed`,
          line,
        );
      } else {
        errors.add(
          'LOC_NOT_ABSOLUTE',
          `<loc> "${clip(loc)}" is not an absolute URL; write the full URL with http:// or https://`,
          line,
        );
      }
      return false;
    }
    if (!URL.canParse(loc) || http[2] === '') {
      errors.add('LOC_INVALID', `<loc> "${clip(loc)}" is not a valid URL`, line);
      return false;
    }
    this.checkEscaping(loc, line, warnings);
    if (!this.checkHost(loc, line, errors)) return false;
    this.checkFolder(loc, http[0].length, line, warnings, checkFolder);
    return true;
  }

  /** Length of the origin `loc` starts with, when it is the sitemap's (0 otherwise). */
  sharedPrefixLength(loc: string): number {
    const origin = this.origin;
    return origin !== null && loc.startsWith(origin.prefix) ? origin.prefix.length : 0;
  }

  private checkEscaping(loc: string, line: number, warnings: IssueList): void {
    if (UNESCAPED.test(loc)) {
      warnings.add(
        'LOC_UNESCAPED_CHARS',
        `<loc> "${clip(loc)}" contains characters that must be percent-encoded (spaces, non-ASCII or <>"{}|\\^\`)`,
        line,
      );
    }
  }

  private checkFolder(loc: string, pathStart: number, line: number, warnings: IssueList, checkFolder: boolean): void {
    if (checkFolder && this.scopePath !== null && !loc.startsWith(this.scopePath, pathStart)) {
      warnings.add(
        'LOC_OUTSIDE_PATH',
        `<loc> "${clip(loc)}" is outside ${this.scopePath}, the folder of the sitemap; the protocol ` +
          `limits a sitemap to URLs under its own folder`,
        line,
      );
    }
  }

  /** Slow path: compares normalised origins (case, default port, IDN) and names the difference. */
  private checkHost(loc: string, line: number, errors: IssueList): boolean {
    const actual = originOf(new URL(loc));
    const expected = this.origin;
    if (expected === null) {
      this.origin = actual;
      return true;
    }
    if (actual.host === expected.host && actual.protocol === expected.protocol) return true;
    this.reportHost(actual, expected, line, errors);
    return false;
  }

  private reportHost(actual: Origin, expected: Origin, line: number, errors: IssueList): void {
    const where = this.fromBase ? 'the sitemap' : 'the first URL of the sitemap';
    if (actual.host === expected.host) {
      errors.add(
        'LOC_SCHEME_MISMATCH',
        `URL uses ${actual.protocol} but ${where} uses ${expected.protocol}; the protocol requires every ` +
          `URL to use the sitemap's protocol and host`,
        line,
      );
    } else if (withoutWww(actual.host) === withoutWww(expected.host)) {
      errors.add(
        'LOC_WWW_MISMATCH',
        `URL host ${actual.host} differs from ${expected.host} (${where}); www and non-www are different ` +
          `hosts and the protocol requires every URL to be on the sitemap's host`,
        line,
      );
    } else {
      errors.add(
        'LOC_OTHER_HOST',
        `URL is on ${actual.host}, not on ${expected.host} (${where}); the protocol requires every URL to ` +
          `be on the sitemap's host`,
        line,
      );
    }
  }
}
