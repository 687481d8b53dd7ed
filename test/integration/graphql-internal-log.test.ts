import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UrlTableExportService } from '../../src/audits/url-table-export.js';
import { createTestApp, gql, type TestApp } from '../support/app.js';
import { anAudit, anOrg, aProject, type Org } from '../factories.js';

/**
 * An unexpected failure inside a GraphQL resolver is answered INTERNAL (no detail) inside a 200, and logged with the
 * request id, as a REST 500 is (issue 61: a forged export cursor once failed this way with no log line).
 */
let t: TestApp;
let org: Org;
let projectId: string;
let auditId: string;

beforeAll(async () => {
  t = await createTestApp();
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  const project = await aProject({ org });
  projectId = project.id;
  auditId = (await anAudit({ project, pages: 2 })).id;
});
afterAll(() => t.close());

describe('GraphQL: an unexpected error', () => {
  it('is INTERNAL on the wire, and logged at error level with the request id and the error', async () => {
    const spy = vi.spyOn(UrlTableExportService.prototype, 'piece').mockRejectedValueOnce(new TypeError('boom 61'));
    try {
      const res = await gql(
        t,
        'query($p: ID!, $a: ID) { audit(projectId: $p, auditId: $a) { urlTableExport(format: XLSX) { rows } } }',
        { p: projectId, a: auditId },
        { cookie: org.owner.cookie },
      );
      expect(res.body.errors?.[0]?.extensions?.code).toBe('INTERNAL');
      expect(JSON.stringify(res.body)).not.toMatch(/boom 61|TypeError/);
      const requestId = String(res.res.headers['x-request-id']);
      const line = t.logs.find((l) => l.includes(requestId) && l.includes('boom 61'));
      expect(line, 'a log line with the request id and the error').toBeDefined();
      expect(JSON.parse(line!)).toMatchObject({ level: 50, reqId: requestId, msg: 'request failed' });
    } finally {
      spy.mockRestore();
    }
  });

  it('a refusal (BAD_USER_INPUT) is not logged as an error', async () => {
    const before = t.logs.length;
    const res = await gql(
      t,
      'query($p: ID!, $a: ID) { audit(projectId: $p, auditId: $a) { ' +
        'urlTableExport(format: XLSX, after: "x") { rows } } }',
      { p: projectId, a: auditId },
      { cookie: org.owner.cookie },
    );
    expect(res.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(t.logs.slice(before).filter((l) => /"level":50/.test(l))).toEqual([]);
  });
});
