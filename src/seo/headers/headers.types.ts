import type { Category, Severity } from '../checks/check-catalog.js';

import type { HeaderRecord } from './response-verdicts.js';

export type { HeaderRecord };

export interface HeadersRedirectHop {
  url: string;
  status: number;
}

/** One fetched response (what the safe HTTP client returns), plus optional document facts. */
export interface HeadersInput {
  url: string;
  finalUrl: string;
  status: number;
  httpVersion: string;
  headers: HeaderRecord;
  redirects: readonly HeadersRedirectHop[];
  /**
   * Charset declared inside the HTML (`<meta charset>`), when the caller parsed the body.
   * Only used to avoid reporting META_CHARSET_MISSING when the document declares one.
   */
  documentCharset?: string | null;
  /**
   * Decoded body bytes, when the caller read the whole body; else Content-Length is used. Bodies under
   * CHECK_THRESHOLDS.compressionMinBytes are too small for PERF_NO_COMPRESSION.
   */
  bodyBytes?: number | null;
}

/** Stable check names, in report order. */
export const HEADER_CHECK_NAMES = [
  'https',
  'redirect-chain',
  'strict-transport-security',
  'content-security-policy',
  'x-content-type-options',
  'frame-protection',
  'referrer-policy',
  'permissions-policy',
  'compression',
  'caching',
  'x-robots-tag',
  'content-type-charset',
  'version-disclosure',
] as const;

export type HeaderCheckName = (typeof HEADER_CHECK_NAMES)[number];

export interface HeaderCheck {
  name: HeaderCheckName;
  /** Not-applicable checks (e.g. compression of an image) pass, and their message says why. */
  passed: boolean;
  /** The header value(s) the check looked at, as received; null when absent. */
  value: string | null;
  message: string;
}

export interface HeaderIssue {
  code: string;
  title: string;
  severity: Severity;
  category: Category;
}

export interface HeadersReport {
  url: string;
  finalUrl: string;
  status: number;
  redirects: HeadersRedirectHop[];
  httpVersion: string;
  /** Lower-cased names; repeated headers keep every value as an array. */
  headers: Record<string, string | string[]>;
  checks: HeaderCheck[];
  issues: HeaderIssue[];
}
