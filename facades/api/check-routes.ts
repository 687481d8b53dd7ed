import { ApiCheckDocument, ApiChecksDocument, type IssueCategory, type Severity } from '../generated/graphql.js';
import { defineRoute, type RestRoute } from '../rest/rest-mapper.js';
import { CheckDefinition, arrayOf, body, errors, type ErrorStatus } from '../openapi/components.js';

/**
 * Public like the free tools: no 401 (a bad credential falls back to the per-IP limit) and, being reads, no 403 (a
 * cross-origin GET is not refused).
 */
const CATALOG_ERRORS: ErrorStatus[] = [400, 429, 500];

/** The check catalog (issue 28): public data, limited per client IP at the anonymous rate (a session raises it). */
export const checkRoutes: RestRoute[] = [
  defineRoute({
    method: 'GET',
    url: '/api/checks',
    surface: 'TOOLS',
    summary: 'List the checks of the audit catalog (public)',
    operation: ApiChecksDocument,
    schema: {
      querystring: {
        type: 'object',
        properties: {
          category: { type: 'string', enum: ['META', 'CONTENT', 'LINKS', 'TECHNICAL', 'PERFORMANCE'] },
          severity: { type: 'string', enum: ['CRITICAL', 'WARNING', 'NOTICE'] },
        },
        additionalProperties: false,
      },
      response: { 200: body({ checks: arrayOf(CheckDefinition) }), ...errors(...CATALOG_ERRORS) },
    },
    variables: ({ query }) => ({
      category: (query.category as IssueCategory | undefined) ?? null,
      severity: (query.severity as Severity | undefined) ?? null,
    }),
    map: (data) => ({ checks: data.checks }),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/checks/:code',
    surface: 'TOOLS',
    summary: 'One check of the audit catalog by code (public); 404 for an unknown code',
    operation: ApiCheckDocument,
    schema: {
      params: {
        type: 'object',
        properties: { code: { type: 'string', minLength: 1, maxLength: 100, description: 'Check code.' } },
        required: ['code'],
        additionalProperties: false,
      },
      response: { 200: body({ check: CheckDefinition }), ...errors(404, ...CATALOG_ERRORS) },
    },
    variables: ({ params }) => ({ code: params.code }),
    map: (data) => ({ check: data.check }),
  }),
];
