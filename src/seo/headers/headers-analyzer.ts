import { SEVERITY_WEIGHTS, getCheck } from '../checks/check-catalog.js';
import type { CheckCode } from '../checks/check-catalog.js';
import { HEADER_CHECKS, contextFor } from './header-checks.js';
import type { HeaderIssue, HeadersInput, HeadersReport } from './headers.types.js';
import { parseResponseHeaders, type ResponseHeaders } from './response-verdicts.js';

/** Lower-cased names; a repeated header keeps all its values (array), a single one stays a string. */
function headerRecord(headers: ResponseHeaders): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  for (const [name, values] of headers.fields) record[name] = values.length === 1 ? values[0] : [...values];
  return record;
}

function toIssue(code: CheckCode): HeaderIssue {
  const definition = getCheck(code);
  return { code, title: definition.title, severity: definition.severity, category: definition.category };
}

/**
 * Analyzes the HTTP response headers of one fetched URL (the free `POST /api/tools/headers` tool).
 * Pure: every check reads only the input. Issues reuse the audit catalog's codes, severities and
 * categories, most severe first.
 */
export function analyzeHeaders(input: HeadersInput): HeadersReport {
  const headers = parseResponseHeaders(input.headers);
  const context = contextFor(input, headers);
  const outcomes = HEADER_CHECKS.map((check) => check(context));
  const codes = [...new Set(outcomes.flatMap((entry) => entry.issues))];
  const issues = codes
    .map(toIssue)
    .map((issue, order) => ({ issue, order }))
    .sort((a, b) => SEVERITY_WEIGHTS[b.issue.severity] - SEVERITY_WEIGHTS[a.issue.severity] || a.order - b.order)
    .map(({ issue }) => issue);
  return {
    url: input.url,
    finalUrl: input.finalUrl,
    status: input.status,
    redirects: input.redirects.map((hop) => ({ url: hop.url, status: hop.status })),
    httpVersion: input.httpVersion,
    headers: headerRecord(headers),
    checks: outcomes.map((entry) => entry.check),
    issues,
  };
}
