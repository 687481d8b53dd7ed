import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/platform/ids.js';
import {
  boundedQuery,
  ClientGoneError,
  DEFAULT_QUERY_BOUNDS,
  setQueryBounds,
  type QueryBounds,
} from '../../src/platform/db/native-query.js';
import { createTestApp, gql, uniq, type TestApp } from '../support/app.js';
import { anAudit, anOrg, aProject, type Org, type Project } from '../factories.js';

/**
 * Every user-shaped grid statement is bounded (docs/performance.md, "Bounded queries"): a costly regular expression
 * is refused before PostgreSQL; a stored segment that still holds one (saved before the check) is refused by name,
 * never run; a statement past its class's time limit is stopped by PostgreSQL with a clear BAD_USER_INPUT; a client
 * that goes away has its statement cancelled in PostgreSQL; one organization's reads cannot take another's slots.
 */
let t: TestApp;
let attacker: Org;
let victim: Org;
let attackerProject: Project;
let attackerAudit: string;
let victimAudit: string;
let victimProject: Project;
let hazardSegment: string;

/**
 * Five groups and their back-references, anchored: PostgreSQL's engine backtracks through every split of the URL,
 * about 7 s for one URL of 75 characters on the test machine. Saved before the cost check existed, as a legacy row.
 */
const BACKREFS = '^(.*)(.*)(.*)(.*)(.*)\\1\\2\\3\\4\\5$';

const TABLE = `query($p: ID!, $a: ID!, $segment: ID, $filter: UrlTableFilterInput) {
  audit(projectId: $p, auditId: $a) {
    urlTable(first: 10, columns: ["url"], segment: $segment, filter: $filter) { rows { url } totalCount }
  }
}`;

const cookieOf = (org: Org) => ({ cookie: org.owner.cookie });
const withBounds = (over: { timeoutMs?: Partial<QueryBounds['timeoutMs']>; gate?: Partial<QueryBounds['gate']> }) =>
  setQueryBounds(t.runtime.orm.config, {
    timeoutMs: { ...DEFAULT_QUERY_BOUNDS.timeoutMs, ...over.timeoutMs },
    gate: { ...DEFAULT_QUERY_BOUNDS.gate, ...over.gate },
  });

/**
 * The active statements of this database running the URL table over audit_page whose text also has `marker`: a
 * regular expression (`~ $`) or the url_history probe of the first_seen sort.
 */
async function activeGridStatements(marker: string): Promise<{ pid: number; started: string }[]> {
  const { rows } = await t.runtime.pool.query<{ pid: number; started: string }>(
    `SELECT pid, query_start::text AS started FROM pg_stat_activity
     WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()
       AND query LIKE '%FROM audit_page p%' AND strpos(query, $1) > 0`,
    [marker],
  );
  return rows;
}
const activeGridRegexes = () => activeGridStatements('~ $');
const waitingOnHistory = () => activeGridStatements('url_history');

/**
 * A URL table statement that runs until it is stopped, without a costly pattern (those are refused before they run):
 * the first_seen sort reads url_history, held here under an exclusive lock, so the statement waits on it (a lock
 * wait counts in statement_timeout and is cancelled like any statement). Other test files' audit completions that
 * merge into url_history wait the few seconds it is held.
 */
const FIRST_SEEN = `query($p: ID!, $a: ID!) {
  audit(projectId: $p, auditId: $a) {
    urlTable(first: 10, columns: ["url", "first_seen"], sort: { field: "first_seen" }) { rows { url } }
  }
}`;

async function holdUrlHistory(): Promise<() => Promise<void>> {
  const client = await t.runtime.pool.connect();
  await client.query('BEGIN');
  await client.query('LOCK TABLE url_history IN ACCESS EXCLUSIVE MODE');
  return async () => {
    await client.query('ROLLBACK');
    client.release();
  };
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  t = await createTestApp({ APP_RATE_PER_MINUTE: '100000' });
  attacker = await anOrg(t, { plan: 'FREE' });
  victim = await anOrg(t, { plan: 'ENTERPRISE' });
  const host = `grid-${uniq()}.example.com`;
  attackerProject = await aProject({ org: attacker, url: `https://${host}/` });
  // Running: the rule goes into the statement (a completed audit's would be kept as members first).
  attackerAudit = (
    await anAudit({
      project: attackerProject,
      status: 'RUNNING',
      pages: [0, 1, 2].map((i) => ({ url: `https://${host}/${'a'.repeat(40)}${i}` })),
    })
  ).id;
  victimProject = await aProject({ org: victim, url: `https://victim-${uniq()}.example.com/` });
  const victimHost = new URL(victimProject.url).host;
  victimAudit = (
    await anAudit({
      project: victimProject,
      pages: [0, 1, 2, 3, 4].map((i) => ({ url: `https://${victimHost}/${i}` })),
    })
  ).id;
  hazardSegment = newId();
  await t.runtime.pool.query(
    `INSERT INTO segment (id, project_id, name, kind, pattern) VALUES ($1, $2, 'Legacy backrefs', 'REGEX', $3)`,
    [hazardSegment, attackerProject.id, BACKREFS],
  );
});
afterEach(() => withBounds({}));
afterAll(() => t.close());

describe('regular expressions checked for cost', () => {
  it('refuses a back-reference in a URL table filter before PostgreSQL runs it', async () => {
    const filter = { groups: [{ conditions: [{ field: 'url', operator: 'regex', value: BACKREFS }] }] };
    const { body } = await gql(t, TABLE, { p: attackerProject.id, a: attackerAudit, filter }, cookieOf(attacker));
    expect(body.errors?.[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      details: [{ path: 'filter.groups[0].conditions[0].value', message: expect.stringMatching(/backreferences/) }],
    });
    expect(body.errors?.[0].message).toMatch(/could run for seconds per URL was refused/);
  });

  it('refuses nested quantifiers, and takes a leading .* (a URL is short)', async () => {
    const nested = { groups: [{ conditions: [{ field: 'title', operator: 'regex', value: '(a+)+$' }] }] };
    const refused = await gql(
      t,
      TABLE,
      { p: attackerProject.id, a: attackerAudit, filter: nested },
      cookieOf(attacker),
    );
    expect(refused.body.errors?.[0].message).toMatch(/nested quantifiers/);
    const leading = { groups: [{ conditions: [{ field: 'url', operator: 'regex', value: '.*[0-9]$' }] }] };
    const taken = await gql(t, TABLE, { p: attackerProject.id, a: attackerAudit, filter: leading }, cookieOf(attacker));
    expect(taken.body.errors).toBeUndefined();
    expect(taken.body.data.audit.urlTable.totalCount).toBe(3);
  });

  it('refuses the same regular expressions when a segment is saved', async () => {
    const save = (input: Record<string, unknown>) =>
      gql(
        t,
        `mutation($p: ID!, $input: SegmentInput!) { createSegment(projectId: $p, input: $input) { id } }`,
        { p: attackerProject.id, input },
        cookieOf(attacker),
      );
    const regex = await save({ name: 'Backrefs', kind: 'REGEX', pattern: BACKREFS });
    expect(regex.body.errors?.[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      details: [{ path: 'input.pattern', message: expect.stringMatching(/backreferences/) }],
    });
    const filter = await save({
      name: 'Backrefs filter',
      kind: 'FILTER',
      filter: { groups: [{ conditions: [{ field: 'url', operator: 'regex', value: '(x)\\1' }] }] },
    });
    expect(filter.body.errors?.[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      details: [{ path: 'input.filter.groups[0].conditions[0].value', message: expect.stringMatching(/backref/) }],
    });
  });
});

describe('statement time limits', () => {
  it('refuses a stored segment holding one by name, before PostgreSQL runs it', async () => {
    // Time limits so long that a statement run would show: the refusal must come before any.
    withBounds({ timeoutMs: { grid: 60_000, segment: 60_000 } });
    const { status, body } = await gql(
      t,
      TABLE,
      { p: attackerProject.id, a: attackerAudit, segment: hazardSegment },
      cookieOf(attacker),
    );
    expect(status).toBe(200);
    expect(body.errors?.[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      details: [{ path: 'segment', message: expect.stringMatching(/segment "Legacy backrefs" .*edit its rule/) }],
    });
    const scores = await gql(
      t,
      `query($p: ID!, $a: ID!, $s: ID!) { audit(projectId: $p, auditId: $a) { segment(id: $s) { urls } } }`,
      { p: attackerProject.id, a: attackerAudit, s: hazardSegment },
      cookieOf(attacker),
    );
    expect(scores.body.errors?.[0].message).toMatch(/segment "Legacy backrefs" holds a regular expression/);
    const names = await gql(
      t,
      `query($p: ID!, $a: ID!) { audit(projectId: $p, auditId: $a) {
        urlTable(first: 10, columns: ["url", "segment"]) { rows { url } } } }`,
      { p: attackerProject.id, a: attackerAudit },
      cookieOf(attacker),
    );
    expect(names.body.errors?.[0].message).toMatch(/segment "Legacy backrefs" holds a regular expression/);
    // Run, each would take about 7 s of PostgreSQL per URL (past the test's time limit): none was started.
    expect(await activeGridRegexes()).toEqual([]);
  });

  it('gives the connection back clean: the next statement has no time limit left over', async () => {
    withBounds({ timeoutMs: { grid: 200 } });
    await expect(boundedQuery(t.runtime.orm.em, { cls: 'grid' }, 'SELECT pg_sleep(1)')).rejects.toMatchObject({
      code: 'BAD_USER_INPUT',
    });
    const settings = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.runtime.pool.query<{ s: string }>("SELECT current_setting('statement_timeout') AS s"),
      ),
    );
    expect(new Set(settings.map((r) => r.rows[0].s))).toEqual(new Set(['0']));
  });
});

describe('cancelled when the client goes away', () => {
  it('cancels the backend of an aborted bounded statement', async () => {
    const marker = `grid_bounds_${uniq()}`;
    const controller = new AbortController();
    const running = boundedQuery(
      t.runtime.orm.em,
      { cls: 'grid', signal: controller.signal },
      `SELECT pg_sleep(30) AS ${marker}`,
    );
    const pid = await until('the statement to run', async () => {
      const { rows } = await t.runtime.pool.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1 AND pid <> pg_backend_pid()`,
        [`%AS ${marker}%`],
      );
      return rows[0]?.pid;
    });
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(ClientGoneError);
    await until('the backend to stop', async () => {
      const { rows } = await t.runtime.pool.query(
        `SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND state = 'active' AND query LIKE $2`,
        [pid, `%AS ${marker}%`],
      );
      return rows.length === 0;
    });
  });

  it('cancels the URL table statement of an HTTP client that disconnected', async () => {
    withBounds({ timeoutMs: { grid: 60_000 } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const payload = JSON.stringify({ query: FIRST_SEEN, variables: { p: attackerProject.id, a: attackerAudit } });
    const release = await holdUrlHistory();
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': 'application/json', origin: t.config.baseUrl, cookie: attacker.owner.cookie },
    });
    req.on('error', () => undefined);
    req.end(payload);
    try {
      const [running] = await until('the URL table statement to run', async () => {
        const rows = await waitingOnHistory();
        return rows.length ? rows : null;
      });
      req.destroy();
      // Without the cancel it would wait as long as the lock is held, under a 60 s limit.
      await until('the backend to stop', async () => {
        const rows = await waitingOnHistory();
        return !rows.some((r) => r.pid === running.pid && r.started === running.started);
      });
    } finally {
      await release();
    }
  });
});

describe('per-organization slots', () => {
  it("serves another organization's read while one organization's slots are full, and refuses its next", async () => {
    withBounds({ timeoutMs: { grid: 3_000, segment: 3_000 }, gate: { perKey: 1, total: 6, maxWaitMs: 200 } });
    const release = await holdUrlHistory();
    try {
      const held = gql(t, FIRST_SEEN, { p: attackerProject.id, a: attackerAudit }, cookieOf(attacker));
      await until('the attacker to hold its slot', async () => (await waitingOnHistory()).length > 0);
      const second = await gql(t, TABLE, { p: attackerProject.id, a: attackerAudit }, cookieOf(attacker));
      expect(second.body.errors?.[0].extensions).toMatchObject({ code: 'RATE_LIMITED' });
      expect(second.body.errors?.[0].message).toMatch(/at most 1 run at a time/);
      const served = await gql(t, TABLE, { p: victimProject.id, a: victimAudit }, cookieOf(victim));
      expect(served.body.errors).toBeUndefined();
      expect(served.body.data.audit.urlTable.rows).toHaveLength(5);
      // The attacker's held read ends at its time limit, as a refusal that names the sort.
      const answer = (await held).body.errors?.[0];
      expect(answer?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
      expect(answer?.message).toMatch(/first_seen/);
    } finally {
      await release();
    }
  });
});
