import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { validate, type DocumentNode } from 'graphql';
import { buildDomainSchema } from '../../../schema/build-schema.js';
import { queryLimitsRule } from '../../../facades/graphql/graphql-limits.js';
import { loadConfig } from '../../../src/platform/config.js';
import * as webDocuments from '../../../facades/web/src/gql/graphql.js';

/**
 * Every operation the web app sends passes the default depth and cost limits that /graphql and the server renderer
 * apply: one field more on a list's rows (counts, blockers…) once took the project overview past them, and the page
 * was then refused whole (QUERY_TOO_COMPLEX) in the browser and left unrendered by the server.
 */
describe('the web app’s GraphQL documents', () => {
  const documents = Object.entries(webDocuments).filter(
    (entry): entry is [string, DocumentNode] =>
      entry[0].endsWith('Document') && (entry[1] as DocumentNode | undefined)?.kind === 'Document',
  );

  it('are found (the generated module exports them)', () => {
    expect(documents.length).toBeGreaterThan(40);
  });

  it('each pass the default query depth and cost limits', async () => {
    const schema = await buildDomainSchema();
    const config = loadConfig({ NODE_ENV: 'test', BETTER_AUTH_SECRET: 'x'.repeat(32) });
    const rule = queryLimitsRule({ maxDepth: config.GRAPHQL_MAX_DEPTH, maxCost: config.GRAPHQL_MAX_COST });
    const refused = documents
      .map(([name, document]) => [name, validate(schema, document, [rule]).map((e) => e.message)] as const)
      .filter(([, errors]) => errors.length > 0);
    expect(refused).toEqual([]);
  });
});
