import {
  ToolHeadersDocument,
  ToolMetaTagsDocument,
  ToolRobotsDocument,
  ToolSitemapDocument,
} from '../generated/graphql.js';
import { defineRoute, type RestRoute } from '../rest/rest-mapper.js';
import {
  HeadersReport,
  MetaTagsReport,
  RobotsReport,
  SitemapReport,
  errors,
  type ErrorStatus,
} from '../openapi/components.js';

const MiB = 1024 * 1024;
const url = { type: 'string', minLength: 1, maxLength: 2048 } as const;
const oneOf = (...groups: string[][]) => ({ anyOf: groups.map((required) => ({ required })) });
/**
 * 403 only for a session cookie sent from an untrusted Origin; no 401 (a bad credential falls back to the per-IP
 * limit).
 */
const TOOL_ERRORS: ErrorStatus[] = [400, 403, 413, 415, 429, 500];

/** The four free tools (spec §5 B.3): public, limited per client IP at the Free rate (a session raises it). */
export const toolRoutes: RestRoute[] = [
  defineRoute({
    method: 'POST',
    url: '/api/tools/meta-tags',
    surface: 'TOOLS',
    summary: 'Analyze the meta tags of a URL, or of pasted HTML',
    operation: ToolMetaTagsDocument,
    bodyLimit: 6 * MiB,
    schema: {
      body: {
        type: 'object',
        properties: { url, html: { type: 'string', maxLength: 5 * MiB } },
        additionalProperties: false,
        ...oneOf(['url'], ['html']),
      },
      response: { 200: MetaTagsReport, ...errors(...TOOL_ERRORS) },
    },
    variables: ({ body }) => ({ input: body as { url?: string; html?: string } }),
    map: (data) => data.metaTags,
  }),
  defineRoute({
    method: 'POST',
    url: '/api/tools/robots',
    surface: 'TOOLS',
    summary: 'Validate a robots.txt (RFC 9309) and test URLs against it',
    operation: ToolRobotsDocument,
    bodyLimit: 2 * MiB,
    schema: {
      body: {
        type: 'object',
        properties: {
          url,
          content: { type: 'string', maxLength: MiB },
          testUrls: { type: 'array', maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 2048 } },
          userAgent: { type: 'string', minLength: 1, maxLength: 200 },
        },
        additionalProperties: false,
        ...oneOf(['url'], ['content']),
      },
      response: { 200: RobotsReport, ...errors(...TOOL_ERRORS) },
    },
    variables: ({ body }) => ({
      input: body as { url?: string; content?: string; testUrls?: string[]; userAgent?: string },
    }),
    map: (data) => data.robotsTxt,
  }),
  defineRoute({
    method: 'POST',
    url: '/api/tools/headers',
    surface: 'TOOLS',
    summary: 'Check the HTTP headers of a URL (redirect hops, security and SEO headers)',
    operation: ToolHeadersDocument,
    schema: {
      body: { type: 'object', properties: { url }, required: ['url'], additionalProperties: false },
      response: { 200: HeadersReport, ...errors(...TOOL_ERRORS) },
    },
    variables: ({ body }) => ({ url: (body as { url: string }).url }),
    map: (data) => data.httpHeaders,
  }),
  defineRoute({
    method: 'POST',
    url: '/api/tools/sitemap',
    surface: 'TOOLS',
    summary: 'Validate an XML sitemap or sitemap index (gzip allowed when fetched)',
    operation: ToolSitemapDocument,
    bodyLimit: 11 * MiB,
    schema: {
      body: {
        type: 'object',
        properties: { url, content: { type: 'string', maxLength: 10 * MiB } },
        additionalProperties: false,
        ...oneOf(['url'], ['content']),
      },
      response: { 200: SitemapReport, ...errors(...TOOL_ERRORS) },
    },
    variables: ({ body }) => ({ input: body as { url?: string; content?: string } }),
    map: ({ sitemap: { sitemaps, ...rest } }) => (sitemaps ? { ...rest, sitemaps } : rest),
  }),
];
