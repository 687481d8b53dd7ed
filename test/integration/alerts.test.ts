import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUES, createQueue, createWorker, type Queue, type Worker } from '../../src/platform/queues.js';
import { createRedis, type Redis } from '../../src/platform/redis.js';
import { createMailer } from '../../src/platform/mail.js';
import {
  createAddressPolicy,
  createConfiguredSafeHttpClient,
  parseAllowList,
  type SafeHttpClient,
} from '../../src/platform/safe-http/index.js';
import { newId } from '../../src/platform/ids.js';
import {
  AlertFactsReader,
  WebhookDeliveryRunner,
  WebhookSecretBox,
  createAlertJobRunner,
  createAlertTriggers,
  scheduleWeeklyDigest,
  webhookKeyMaterial,
  type AlertJobData,
  type AlertTriggers,
  type AuditFactsProvider,
} from '../../src/alerts/index.js';
import { VITAL_BANDS } from '../../src/technical/index.js';
import {
  createApiKey,
  createTestApp,
  gql,
  reportQueueError,
  signUp,
  uniq,
  type TestApp,
  type TestUser,
} from '../support/app.js';
import { aProject, anAudit, type Org } from '../factories.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { linkIn, parseMail } from '../support/mail-message.js';
import { waitFor } from '../support/worker-process.js';

/**
 * Alerts end to end, in-process: rules and endpoints through GraphQL, a real alert worker (BullMQ, the platform's
 * job runner) with the platform's safe HTTP client and mailer, a webhook receiver on 127.0.0.1 that verifies every
 * signature and refuses the first two deliveries, and an SMTP server that receives the e-mails.
 */

let t: TestApp;
let strict: TestApp;
let smtp: SmtpSink;
let redis: Redis;
let queue: Queue<AlertJobData>;
let worker: Worker<AlertJobData>;
let http: SafeHttpClient;
let triggers: AlertTriggers;
const prefix = `alerts-${uniq()}`;
/** New issues of an audit, as src/comparison would report them (this test's facts provider adds them). */

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await createTestApp({
    REDIS_PREFIX: prefix,
    SAFE_HTTP_ALLOW: '127.0.0.1',
    SMTP_URL: `smtp://mailer:smtp-pass@127.0.0.1:${smtp.port}`,
    MAIL_FROM: 'SEO Alerts <alerts@example.test>',
    ALERT_RETRY_DELAY_MS: '100',
    ALERT_WEBHOOK_ATTEMPTS: '5',
    ALERT_RANK_SETTLE_MS: '0',
  });
  strict = await createTestApp();
  redis = createRedis(t.config.REDIS_URL, { name: 'alerts-test' });
  queue = createQueue<AlertJobData>(QUEUES.alert, redis, prefix, reportQueueError);
  http = createConfiguredSafeHttpClient(t.config);
  const reader = new AlertFactsReader(VITAL_BANDS);
  // What workers/alert-jobs.ts gives the runner: new issues and regressed pages come from src/comparison.
  const auditFacts: AuditFactsProvider = (db, auditId) => reader.auditFacts(db, auditId);
  const runner = createAlertJobRunner({
    db: t.runtime.orm.em,
    queue,
    http,
    mailer: createMailer(t.config),
    logger: t.runtime.logger,
    config: t.config,
    poorBounds: VITAL_BANDS,
    auditFacts,
  });
  worker = createWorker<AlertJobData>(QUEUES.alert, (job) => runner.run(job), {
    redisUrl: t.config.REDIS_URL,
    prefix,
    onError: reportQueueError,
    concurrency: 4,
  });
  triggers = createAlertTriggers({
    redis,
    db: t.runtime.orm.em,
    config: t.config,
    logger: t.runtime.logger,
    onError: reportQueueError,
  });
});

afterAll(async () => {
  await worker?.close();
  await triggers?.close();
  await queue?.obliterate({ force: true }).catch(() => undefined);
  await queue?.close();
  await redis?.quit();
  await http?.close();
  await t?.close();
  await strict?.close();
  await smtp?.close();
});

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  verified: boolean;
  answered: number;
}

/**
 * A webhook receiver as a customer would write it (no platform code): it checks X-Signature against the secret
 * (HMAC-SHA256 of "t.body", timestamp within 5 minutes) and answers 500 to the first `failFirst` deliveries.
 */
async function startReceiver(failFirst = 0) {
  const received: Received[] = [];
  const state = { secret: '' };
  const verify = (body: string, header: string | undefined) => {
    const parts = Object.fromEntries((header ?? '').split(',').map((p) => p.split('=') as [string, string]));
    const t0 = Number(parts.t);
    if (!Number.isInteger(t0) || Math.abs(Date.now() / 1000 - t0) > 300 || !/^[0-9a-f]{64}$/.test(parts.v1 ?? ''))
      return false;
    const expected = createHmac('sha256', state.secret).update(`${t0}.${body}`).digest();
    return timingSafeEqual(expected, Buffer.from(parts.v1, 'hex'));
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const verified = verify(body, req.headers['x-signature'] as string | undefined);
      const answered = !verified ? 401 : received.length < failFirst ? 500 : 200;
      received.push({ headers: req.headers, body, verified, answered });
      res.writeHead(answered, { 'content-type': 'text/plain' });
      res.end(answered === 200 ? 'ok, thanks' : `nope (${received.length})`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/seo`,
    received,
    useSecret: (secret: string) => (state.secret = secret),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const as = (user: TestUser) => ({ cookie: user.cookie });

async function ok<T = any>(user: TestUser, query: string, variables = {}): Promise<T> {
  const { body } = await gql<T>(t, query, variables, as(user));
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data as T;
}

async function errorCode(app: TestApp, headers: Record<string, string>, query: string, variables = {}) {
  const { body } = await gql(app, query, variables, headers);
  return body.errors?.[0]?.extensions?.code;
}

const CREATE_RULE = `mutation($p: ID!, $i: AlertRuleInput!) { createAlertRule(projectId: $p, input: $i) {
  id kind category points channels enabled description } }`;
const CREATE_ENDPOINT = `mutation($p: ID!, $i: CreateWebhookEndpointInput!) {
  createWebhookEndpoint(projectId: $p, input: $i) { secret endpoint { id url enabled lastDelivery { id } } } }`;
const DELIVERIES = `query($e: ID!, $first: Int) { webhookDeliveries(endpointId: $e, first: $first) {
  totalCount pageInfo { hasNextPage endCursor }
  nodes { id eventId eventType attempt manual succeeded statusCode error latencyMs responseExcerpt
    status reason nextAttemptAt } } }`;

async function setUp(owner: TestUser, failFirst = 0) {
  const org: Org = { t, id: owner.organizationId, plan: 'FREE', owner };
  const project = await aProject({ org });
  const receiver = await startReceiver(failFirst);
  const created = await ok(owner, CREATE_ENDPOINT, { p: project.id, i: { url: receiver.url, description: 'CI' } });
  receiver.useSecret(created.createWebhookEndpoint.secret);
  return { org, project, receiver, endpointId: created.createWebhookEndpoint.endpoint.id as string };
}

const alertEvents = async (projectId: string) =>
  (await t.runtime.pool.query('SELECT id, kind FROM alert_event WHERE project_id = $1', [projectId])).rows;

describe('a score drop', () => {
  it('sends one signed webhook (retried twice, verified by the receiver) and one e-mail', async () => {
    const owner = await signUp(t);
    const { project, receiver, endpointId } = await setUp(owner, 2);
    try {
      const rule = await ok(owner, CREATE_RULE, {
        p: project.id,
        i: { kind: 'SCORE_DROP', category: 'OVERALL', points: 10, channels: ['WEBHOOK', 'EMAIL'] },
      });
      expect(rule.createAlertRule).toMatchObject({
        kind: 'SCORE_DROP',
        category: 'OVERALL',
        points: 10,
        enabled: true,
        channels: ['EMAIL', 'WEBHOOK'],
        description: 'Overall score drops by 10 points or more',
      });
      const pref = await ok(
        owner,
        `mutation($p: ID!) { setAlertEmailPreference(projectId: $p, input: { immediate: true }) {
          email immediate weeklyDigest mailConfigured } }`,
        { p: project.id },
      );
      expect(pref.setAlertEmailPreference).toEqual({
        email: owner.email,
        immediate: true,
        weeklyDigest: false,
        mailConfigured: true,
      });

      await anAudit({ project, scores: { overall: 82 }, createdAt: new Date(Date.now() - 3_600_000) });
      const head = await anAudit({ project, scores: { overall: 61 } });
      const mailsBefore = smtp.messages.length;
      // What the audit worker does when an audit completes (workers/audit-jobs.ts).
      await triggers.auditCompleted(head.id);

      await waitFor('the third delivery', async () => receiver.received.length >= 3, 30_000);
      expect(receiver.received.map((r) => [r.verified, r.answered])).toEqual([
        [true, 500],
        [true, 500],
        [true, 200],
      ]);
      const eventIds = new Set(receiver.received.map((r) => r.headers['x-event-id']));
      expect(eventIds.size).toBe(1);
      const payload = JSON.parse(receiver.received[2].body);
      expect(payload).toMatchObject({
        id: [...eventIds][0],
        type: 'alert.score_drop',
        project: { id: project.id, url: project.url },
        rule: { id: rule.createAlertRule.id, kind: 'SCORE_DROP' },
        alert: {
          title: 'Overall score dropped 21 points (82 → 61)',
          url: `${t.config.baseUrl}/projects/${project.id}/audits/${head.id}`,
          details: { kind: 'SCORE_DROP', category: 'OVERALL', before: 82, after: 61, drop: 21, auditId: head.id },
        },
      });
      expect(receiver.received[0].headers['content-type']).toBe('application/json');
      expect(receiver.received.map((r) => r.headers['x-delivery-attempt'])).toEqual(['1', '2', '3']);

      // The delivery log: one row per attempt, newest first.
      const log = (await ok(owner, DELIVERIES, { e: endpointId })).webhookDeliveries;
      expect(log.totalCount).toBe(3);
      expect(log.nodes.map((d: any) => [d.attempt, d.succeeded, d.statusCode, d.manual, d.status])).toEqual([
        [3, true, 200, false, 'DELIVERED'],
        [2, false, 500, false, 'DELIVERED'],
        [1, false, 500, false, 'DELIVERED'],
      ]);
      expect(log.nodes[0].responseExcerpt).toBe('ok, thanks');
      expect(log.nodes[2]).toMatchObject({ error: 'The endpoint answered HTTP 500', responseExcerpt: 'nope (1)' });
      expect(log.nodes.every((d: any) => d.eventType === 'alert.score_drop' && d.latencyMs >= 0)).toBe(true);

      // One e-mail, with a text part and an HTML part, a link to the audit and an unsubscribe link.
      const mail = parseMail((await smtp.waitFor(owner.email, 10_000, mailsBefore)).raw);
      expect(mail.subject).toBe(`[${project.domain}] Overall score dropped 21 points (82 → 61)`);
      expect(mail.text).toContain('The overall score of the latest audit is 61, down from 82');
      expect(mail.html).toContain('<h1 style="font-size: 1.25rem; margin-top: 0.25rem">Overall score dropped 21');
      expect(linkIn(mail, `${t.config.baseUrl}/projects/`)).toBe(
        `${t.config.baseUrl}/projects/${project.id}/audits/${head.id}`,
      );
      const unsubscribe = linkIn(mail, `${t.config.baseUrl}/unsubscribe?token=`);
      expect(mail.html).toContain(unsubscribe.replaceAll('&', '&amp;'));

      // The same audit reported again raises nothing new.
      await triggers.auditCompleted(head.id);
      await queue.add('evaluate-audit', { kind: 'evaluate-audit', auditId: head.id });
      await new Promise((r) => setTimeout(r, 1_500));
      expect(receiver.received).toHaveLength(3);
      expect(await alertEvents(project.id)).toHaveLength(1);
      expect(smtp.messages.slice(mailsBefore).filter((m) => m.to.includes(owner.email))).toHaveLength(1);

      // Redeliver the first attempt: one more signed request with the same event id, logged as manual.
      const redelivered = await ok(owner, 'mutation($d: ID!) { redeliverWebhook(deliveryId: $d) { eventId } }', {
        d: log.nodes[2].id,
      });
      expect(redelivered.redeliverWebhook.eventId).toBe([...eventIds][0]);
      await waitFor('the redelivery', async () => receiver.received.length >= 4, 15_000);
      expect(receiver.received[3]).toMatchObject({ verified: true, answered: 200 });
      expect(receiver.received[3].headers['x-event-id']).toBe([...eventIds][0]);
      const after = await waitFor('the redelivery logged', async () => {
        const d = (await ok(owner, DELIVERIES, { e: endpointId, first: 2 })).webhookDeliveries;
        return d.totalCount === 4 && d;
      });
      expect(after.nodes[0]).toMatchObject({ manual: true, succeeded: true, attempt: 1 });
      expect(after.pageInfo).toEqual({ hasNextPage: true, endCursor: after.nodes[1].id });

      // The unsubscribe link works without signing in: every alert e-mail of the person is off.
      const token = new URL(unsubscribe).searchParams.get('token')!;
      // One character of its MAC changed, not among the last (whose unused bits an "AAA" could leave as they were).
      const at = token.length - 5;
      const bad = await errorCode(t, {}, 'mutation($t: String!) { unsubscribeAlertEmails(token: $t) { projects } }', {
        t: `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`,
      });
      expect(bad).toBe('BAD_USER_INPUT');
      const done = await gql(t, 'mutation($t: String!) { unsubscribeAlertEmails(token: $t) { projects message } }', {
        t: token,
      });
      expect(done.body.data?.unsubscribeAlertEmails.projects).toBe(1);
      const now = await ok(owner, 'query($p: ID!) { alertEmailPreference(projectId: $p) { immediate } }', {
        p: project.id,
      });
      expect(now.alertEmailPreference.immediate).toBe(false);
    } finally {
      await receiver.close();
    }
  });
});

describe('new issues and regressed pages', () => {
  it('come from the comparison of the audit with the one before, as webhooks', async () => {
    const owner = await signUp(t);
    const { project, receiver } = await setUp(owner);
    try {
      await ok(owner, CREATE_RULE, {
        p: project.id,
        i: { kind: 'NEW_ISSUES', minSeverity: 'CRITICAL', channels: ['WEBHOOK'] },
      });
      await ok(owner, CREATE_RULE, { p: project.id, i: { kind: 'PAGE_REGRESSION', channels: ['WEBHOOK'] } });
      const page = (path: string) => `${project.url.replace(/\/$/, '')}${path}`;
      await anAudit({
        project,
        createdAt: new Date(Date.now() - 3_600_000),
        pages: [{ url: page('/') }, { url: page('/shop') }, { url: page('/blog') }],
        issues: [{ code: 'META_TITLE_MISSING', occurrences: [page('/blog')] }],
      });
      // The deploy: /shop answers 404, /blog gets noindex, and two pages lose their title (one had none before).
      const head = await anAudit({
        project,
        pages: [{ url: page('/') }, { url: page('/shop'), statusCode: 404 }, { url: page('/blog'), indexable: false }],
        issues: [
          { code: 'META_TITLE_MISSING', occurrences: [page('/'), page('/blog')] },
          { code: 'META_DESCRIPTION_TOO_SHORT', occurrences: [page('/')] },
        ],
      });
      await triggers.auditCompleted(head.id);
      await waitFor('two alerts', async () => receiver.received.length >= 2, 15_000);
      const byType = new Map(receiver.received.map((r) => [JSON.parse(r.body).type, JSON.parse(r.body)]));
      expect([...byType.keys()].sort()).toEqual(['alert.new_issues', 'alert.page_regression']);
      expect(receiver.received.every((r) => r.verified)).toBe(true);
      // Only the critical code is new for the rule (the notice is below it), on the one page that gained it.
      expect(JSON.stringify(byType.get('alert.new_issues').alert)).toContain('META_TITLE_MISSING');
      expect(JSON.stringify(byType.get('alert.new_issues').alert)).not.toContain('META_DESCRIPTION_TOO_SHORT');
      const regression = JSON.stringify(byType.get('alert.page_regression').alert);
      expect(regression).toContain(page('/shop'));
      expect(regression).toContain(page('/blog'));
      expect(regression).not.toContain(`"${page('/')}"`);
    } finally {
      await receiver.close();
    }
  });
});

describe('keyword alerts after a rank check', () => {
  it('raises KEYWORD_DROP and KEYWORD_LEFT_TOP10 once per window of checks', async () => {
    const owner = await signUp(t);
    const { project, receiver } = await setUp(owner);
    try {
      for (const i of [
        { kind: 'KEYWORD_DROP', positions: 5, channels: ['WEBHOOK'] },
        { kind: 'KEYWORD_LEFT_TOP10', channels: ['WEBHOOK'] },
      ])
        await ok(owner, CREATE_RULE, { p: project.id, i });
      const keywordId = newId();
      await t.runtime.pool.query(
        `INSERT INTO keyword (id, project_id, term, term_key, country, language, device)
         VALUES ($1, $2, 'balcony plants', 'balcony plants', 'us', 'en', 'desktop')`,
        [keywordId, project.id],
      );
      const rank = (position: number | null, minutesAgo: number) =>
        t.runtime.pool.query(
          `INSERT INTO ranking (id, keyword_id, status, position, url, provider, checked_at)
           VALUES ($1, $2, 'OK', $3, NULL, 'test', now() - make_interval(mins => $4))`,
          [newId(), keywordId, position, minutesAgo],
        );
      await rank(4, 60 * 24);
      await rank(15, 1);
      // What the rank worker does after a successful keyword check (workers/rank-jobs.ts).
      await triggers.keywordChecked(keywordId);
      await waitFor('two keyword alerts', async () => receiver.received.length >= 2, 15_000);
      const types = receiver.received.map((r) => JSON.parse(r.body).type).sort();
      expect(types).toEqual(['alert.keyword_drop', 'alert.keyword_left_top10']);
      const drop = receiver.received.map((r) => JSON.parse(r.body)).find((p) => p.type === 'alert.keyword_drop');
      expect(drop.alert).toMatchObject({
        lines: ['“balcony plants”: #4 → #15'],
        details: { keywords: [{ keywordId, keyword: 'balcony plants', before: 4, after: 15, drop: 11 }] },
      });

      // The same checks evaluated again raise nothing; a newer check is a new window.
      await triggers.keywordChecked(keywordId);
      await new Promise((r) => setTimeout(r, 1_500));
      expect(receiver.received).toHaveLength(2);
      await rank(30, 0);
      await triggers.keywordChecked(keywordId);
      await waitFor('the next drop', async () => receiver.received.length >= 3, 15_000);
      expect(JSON.parse(receiver.received[2].body).alert.lines).toEqual(['“balcony plants”: #15 → #30']);
    } finally {
      await receiver.close();
    }
  });
});

describe('a cannibalised keyword after a rank check', () => {
  it('raises KEYWORD_CANNIBALISED when the latest check newly has 2+ site URLs, once', async () => {
    const owner = await signUp(t);
    const { project, receiver } = await setUp(owner);
    try {
      await ok(owner, CREATE_RULE, { p: project.id, i: { kind: 'KEYWORD_CANNIBALISED', channels: ['WEBHOOK'] } });
      const keywordId = newId();
      await t.runtime.pool.query(
        `INSERT INTO keyword (id, project_id, term, term_key, country, language, device)
         VALUES ($1, $2, 'herb garden', 'herb garden', 'us', 'en', 'desktop')`,
        [keywordId, project.id],
      );
      const site = (path: string) => `https://www.${project.domain}${path}`;
      // As the rank worker writes a successful check: the snapshot of the top results and the ranking.
      const check = async (minutesAgo: number, urls: string[]) => {
        const snapshotId = newId();
        const results = urls.map((url, i) => ({ position: i + 1, url, domain: new URL(url).hostname, title: null }));
        await t.runtime.pool.query(
          `INSERT INTO serp_snapshot (id, keyword_id, provider, checked_at, requests, results)
           VALUES ($1, $2, 'test', now() - make_interval(mins => $3), 1, $4)`,
          [snapshotId, keywordId, minutesAgo, JSON.stringify(results)],
        );
        const own = results.find((r) => r.url.includes(project.domain));
        await t.runtime.pool.query(
          `INSERT INTO ranking (id, keyword_id, status, position, url, provider, snapshot_id, checked_at)
           VALUES ($1, $2, 'OK', $3, $4, 'test', $5, now() - make_interval(mins => $6))`,
          [newId(), keywordId, own?.position ?? null, own?.url ?? null, snapshotId, minutesAgo],
        );
        await triggers.keywordChecked(keywordId);
      };
      await check(60, ['https://other.org/herbs', site('/herbs')]);
      await new Promise((r) => setTimeout(r, 1_500));
      expect(receiver.received).toHaveLength(0);
      await check(2, ['https://other.org/herbs', site('/herbs'), `http://${project.domain}/blog/herbs`]);
      await waitFor('the cannibalisation alert', async () => receiver.received.length >= 1, 15_000);
      const alert = JSON.parse(receiver.received[0].body);
      expect(alert.type).toBe('alert.keyword_cannibalised');
      expect(alert.alert.details.keywords).toEqual([
        {
          keywordId,
          keyword: 'herb garden',
          urls: [
            { url: site('/herbs'), position: 2 },
            { url: `http://${project.domain}/blog/herbs`, position: 3 },
          ],
          urlsBefore: 1,
        },
      ]);
      // Still two URLs at the next check: not news.
      await check(1, [site('/herbs'), `http://${project.domain}/blog/herbs`]);
      await new Promise((r) => setTimeout(r, 1_500));
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});

describe('the weekly digest', () => {
  it('mails each member who chose it: score trend, new critical issues and keyword movers', async () => {
    const owner = await signUp(t);
    const { project, receiver } = await setUp(owner);
    await receiver.close();
    await ok(
      owner,
      'mutation($p: ID!) { setAlertEmailPreference(projectId: $p, input: { weeklyDigest: true }) { weeklyDigest } }',
      {
        p: project.id,
      },
    );
    const day = 24 * 3_600_000;
    const page = (path: string) => `${project.url.replace(/\/$/, '')}${path}`;
    await anAudit({
      project,
      scores: { overall: 70 },
      createdAt: new Date(Date.now() - 10 * day),
      issues: [{ code: 'META_DESCRIPTION_TOO_SHORT', occurrences: [page('/old')] }],
    });
    // New since the audit before: a critical issue on 3 pages (its title with markup), a notice on 9.
    await anAudit({
      project,
      scores: { overall: 75 },
      createdAt: new Date(Date.now() - 2 * day),
      issues: [
        {
          code: 'LINKS_INTERNAL_BROKEN',
          title: 'Broken <internal> links',
          severity: 'CRITICAL',
          occurrences: ['/a', '/b', '/c'].map(page),
        },
        {
          code: 'META_DESCRIPTION_TOO_SHORT',
          title: 'Short descriptions',
          severity: 'NOTICE',
          occurrences: ['/old', ...Array.from({ length: 9 }, (_, i) => page(`/p${i}`))],
        },
      ],
    });
    const keywordId = newId();
    await t.runtime.pool.query(
      `INSERT INTO keyword (id, project_id, term, term_key, country, language, device)
       VALUES ($1, $2, 'small pots', 'small pots', 'us', 'en', 'desktop')`,
      [keywordId, project.id],
    );
    for (const [position, daysAgo] of [
      [9, 8],
      [3, 1],
    ])
      await t.runtime.pool.query(
        `INSERT INTO ranking (id, keyword_id, status, position, provider, checked_at)
         VALUES ($1, $2, 'OK', $3, 'test', now() - make_interval(days => $4))`,
        [newId(), keywordId, position, daysAgo],
      );
    // Another member's organization, without the digest chosen, gets nothing.
    const other = await signUp(t);
    const mailsBefore = smtp.messages.length;

    // The scheduler is registered once however often a worker starts, then fires the weekly job.
    await scheduleWeeklyDigest(queue, t.config.ALERT_DIGEST_CRON);
    await scheduleWeeklyDigest(queue, t.config.ALERT_DIGEST_CRON);
    expect(await queue.getJobSchedulers()).toEqual([
      expect.objectContaining({ key: 'alert-weekly-digest', pattern: '0 8 * * 1', tz: 'UTC' }),
    ]);
    await queue.add('weekly-digest', { kind: 'weekly-digest' });

    const mail = parseMail((await smtp.waitFor(owner.email, 15_000, mailsBefore)).raw);
    expect(mail.subject).toMatch(/^Weekly SEO digest: /);
    expect(mail.text).toContain(`${project.domain} (${t.config.baseUrl}/projects/${project.id})`);
    expect(mail.text).toContain('Overall score 75 (up 5 from 70).');
    expect(mail.text).toContain('New critical issues: Broken <internal> links (3)');
    expect(mail.text).not.toContain('Short descriptions');
    expect(mail.text).toContain('Keywords up: “small pots” #9 → #3');
    expect(mail.html).toContain('Broken &lt;internal&gt; links (3 pages)');
    expect(mail.html).not.toContain('Broken <internal>');
    linkIn(mail, `${t.config.baseUrl}/unsubscribe?token=`);
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.messages.slice(mailsBefore).some((m) => m.to.includes(other.email))).toBe(false);
  });
});

describe('deliveries given up', () => {
  it('shows an abandoned delivery with its reason: attempts ran out, or a refusal a retry would meet', async () => {
    const owner = await signUp(t);
    // Always 500: the delivery's 5 attempts (ALERT_WEBHOOK_ATTEMPTS) run out.
    const { project, receiver, endpointId } = await setUp(owner, 1_000);
    // A secret that can no longer be opened (WEBHOOK_SECRET_KEY changed): not retried.
    const broken = await ok(owner, CREATE_ENDPOINT, { p: project.id, i: { url: receiver.url } });
    const brokenId = broken.createWebhookEndpoint.endpoint.id as string;
    await t.runtime.pool.query("UPDATE webhook_endpoint SET secret = 'v1.not-a-sealed-secret' WHERE id = $1", [
      brokenId,
    ]);
    try {
      await ok(owner, CREATE_RULE, {
        p: project.id,
        i: { kind: 'SCORE_DROP', category: 'OVERALL', points: 5, channels: ['WEBHOOK'] },
      });
      await anAudit({ project, scores: { overall: 90 }, createdAt: new Date(Date.now() - 3_600_000) });
      const head = await anAudit({ project, scores: { overall: 70 } });
      await triggers.auditCompleted(head.id);

      const exhausted = await waitFor(
        'five attempts, the last one abandoned',
        async () => {
          const d = (await ok(owner, DELIVERIES, { e: endpointId })).webhookDeliveries;
          return d.totalCount === 5 && d.nodes[0].status === 'ABANDONED' && d;
        },
        20_000,
      );
      expect(receiver.received.map((r) => r.answered)).toEqual([500, 500, 500, 500, 500]);
      expect(exhausted.nodes.map((d: any) => d.attempt)).toEqual([5, 4, 3, 2, 1]);
      for (const d of exhausted.nodes)
        expect(d).toMatchObject({
          status: 'ABANDONED',
          reason: 'Gave up after 5 attempts; the last: The endpoint answered HTTP 500',
          nextAttemptAt: null,
        });
      const refused = await waitFor('the refused delivery logged', async () => {
        const d = (await ok(owner, DELIVERIES, { e: brokenId })).webhookDeliveries;
        return d.nodes[0]?.status === 'ABANDONED' && d;
      });
      expect(refused.totalCount).toBe(1);
      expect(refused.nodes[0]).toMatchObject({
        attempt: 1,
        succeeded: false,
        status: 'ABANDONED',
        reason: 'Not retried: The signing secret cannot be read (WEBHOOK_SECRET_KEY changed?): rotate the secret.',
      });
      // The endpoints list shows it as well (its latest delivery).
      const listed = await ok(
        owner,
        'query($p: ID!) { webhookEndpoints(projectId: $p) { id lastDelivery { status reason } } }',
        { p: project.id },
      );
      expect(listed.webhookEndpoints.find((e: any) => e.id === brokenId).lastDelivery).toMatchObject({
        status: 'ABANDONED',
      });
      // Given up is final: nothing more is sent.
      await new Promise((r) => setTimeout(r, 1_000));
      expect(receiver.received).toHaveLength(5);
    } finally {
      await receiver.close();
    }
  });

  it('evaluates an audit once and sends each delivery once, however many workers run its jobs at once', async () => {
    const owner = await signUp(t);
    const { project, receiver, endpointId } = await setUp(owner);
    try {
      await ok(owner, CREATE_RULE, {
        p: project.id,
        i: { kind: 'SCORE_DROP', category: 'OVERALL', points: 5, channels: ['WEBHOOK'] },
      });
      const earlier = await anAudit({ project, scores: { overall: 90 }, createdAt: new Date(Date.now() - 3_600_000) });
      const head = await anAudit({ project, scores: { overall: 70 } });
      // Four copies of the evaluation job at once (a retry, a reconciler's, another worker's), beside the queue's.
      const runner = createAlertJobRunner({
        db: t.runtime.orm.em,
        queue,
        http,
        mailer: createMailer(t.config),
        logger: t.runtime.logger,
        config: t.config,
        poorBounds: VITAL_BANDS,
      });
      const job = { data: { kind: 'evaluate-audit' as const, auditId: head.id }, attemptsMade: 0, timestamp: 0 };
      await Promise.all([runner.run(job), runner.run(job), runner.run(job), runner.run(job)]);
      await waitFor('the delivery', async () => receiver.received.length >= 1, 15_000);
      // And four copies of its first attempt's job, after it succeeded.
      const [{ id: deliveryId }] = (
        await t.runtime.pool.query('SELECT id FROM alert_delivery WHERE endpoint_id = $1', [endpointId])
      ).rows;
      const attempt = { data: { kind: 'deliver' as const, deliveryId, attempt: 1 }, attemptsMade: 0, timestamp: 0 };
      const again = await Promise.all([runner.run(attempt), runner.run(attempt), runner.run(attempt)]);
      expect(again).toEqual([{ status: 'NOT_CLAIMED' }, { status: 'NOT_CLAIMED' }, { status: 'NOT_CLAIMED' }]);
      await new Promise((r) => setTimeout(r, 1_000));
      expect(receiver.received).toHaveLength(1);
      expect(await alertEvents(project.id)).toHaveLength(1);
      const log = (await ok(owner, DELIVERIES, { e: endpointId })).webhookDeliveries;
      expect(log.nodes.map((d: any) => [d.attempt, d.status])).toEqual([[1, 'DELIVERED']]);
      // The project's first audit has nothing to compare with: evaluated all the same, nothing left owed.
      await runner.run({ data: { kind: 'evaluate-audit', auditId: earlier.id }, attemptsMade: 0, timestamp: 0 });
      const owed = await t.runtime.pool.query(
        'SELECT audit_id AS "auditId", state FROM alert_evaluation WHERE audit_id = ANY($1) ORDER BY created_at',
        [[earlier.id, head.id]],
      );
      expect(owed.rows.map((r) => r.state)).toEqual(['DONE', 'DONE']);
    } finally {
      await receiver.close();
    }
  });
});

describe('rules, endpoints and access', () => {
  it('validates rules with the field at fault', async () => {
    const owner = await signUp(t);
    const project = await aProject({ org: { t, id: owner.organizationId, plan: 'FREE', owner } });
    const { body } = await gql(
      t,
      CREATE_RULE,
      { p: project.id, i: { kind: 'SCORE_DROP', channels: ['EMAIL'] } },
      as(owner),
    );
    expect(body.errors?.[0]).toMatchObject({
      message: 'points must be a whole number of points from 1 to 100',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const noChannel = { kind: 'VITAL_POOR', channels: [] };
    expect(await errorCode(t, as(owner), CREATE_RULE, { p: project.id, i: noChannel })).toBe('BAD_USER_INPUT');
    const wrongParam = { kind: 'PAGE_REGRESSION', positions: 3, channels: ['EMAIL'] };
    expect(await errorCode(t, as(owner), CREATE_RULE, { p: project.id, i: wrongParam })).toBe('BAD_USER_INPUT');

    // Edit and delete.
    const created = await ok(owner, CREATE_RULE, {
      p: project.id,
      i: { kind: 'NEW_ISSUES', channels: ['EMAIL'] },
    });
    const id = created.createAlertRule.id;
    const updated = await ok(
      owner,
      `mutation($id: ID!, $i: AlertRuleInput!) { updateAlertRule(id: $id, input: $i) {
        kind minSeverity enabled channels } }`,
      { id, i: { kind: 'NEW_ISSUES', minSeverity: 'WARNING', enabled: false, channels: ['WEBHOOK'] } },
    );
    expect(updated.updateAlertRule).toEqual({
      kind: 'NEW_ISSUES',
      minSeverity: 'WARNING',
      enabled: false,
      channels: ['WEBHOOK'],
    });
    await ok(owner, 'mutation($id: ID!) { deleteAlertRule(id: $id) { id } }', { id });
    expect(
      (await ok(owner, 'query($p: ID!) { alertRules(projectId: $p) { id } }', { p: project.id })).alertRules,
    ).toEqual([]);
  });

  it("keeps another organization's rules, endpoints and deliveries NOT_FOUND", async () => {
    const owner = await signUp(t);
    const { project, receiver, endpointId } = await setUp(owner);
    try {
      const rule = await ok(owner, CREATE_RULE, { p: project.id, i: { kind: 'VITAL_POOR', channels: ['WEBHOOK'] } });
      await ok(owner, 'mutation($e: ID!) { sendTestWebhook(endpointId: $e) { jobId } }', { e: endpointId });
      await waitFor('the test event', async () => receiver.received.length >= 1, 15_000);
      expect(JSON.parse(receiver.received[0].body)).toMatchObject({ type: 'test', rule: null });
      expect(receiver.received[0].verified).toBe(true);
      const delivery = await waitFor('the test delivery logged', async () => {
        const d = (await ok(owner, DELIVERIES, { e: endpointId })).webhookDeliveries.nodes[0];
        return d;
      });
      expect(delivery).toMatchObject({ eventType: 'test', manual: true, succeeded: true });

      const stranger = as(await signUp(t));
      const ruleId = rule.createAlertRule.id;
      for (const [query, variables] of [
        ['query($p: ID!) { alertRules(projectId: $p) { id } }', { p: project.id }],
        ['query($p: ID!) { webhookEndpoints(projectId: $p) { id } }', { p: project.id }],
        [
          'mutation($id: ID!, $i: AlertRuleInput!) { updateAlertRule(id: $id, input: $i) { id } }',
          { id: ruleId, i: { kind: 'VITAL_POOR', channels: ['EMAIL'] } },
        ],
        ['mutation($id: ID!) { deleteAlertRule(id: $id) { id } }', { id: ruleId }],
        ['mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret } }', { id: endpointId }],
        ['mutation($id: ID!) { deleteWebhookEndpoint(id: $id) { id } }', { id: endpointId }],
        [DELIVERIES, { e: endpointId }],
        ['mutation($d: ID!) { redeliverWebhook(deliveryId: $d) { jobId } }', { d: delivery.id }],
        ['mutation($e: ID!) { sendTestWebhook(endpointId: $e) { jobId } }', { e: endpointId }],
        ['query($p: ID!) { alertEmailPreference(projectId: $p) { immediate } }', { p: project.id }],
        ['mutation($id: ID!) { deleteAlertRule(id: $id) { id } }', { id: 'not-a-uuid' }],
      ] as const)
        expect(await errorCode(t, stranger, query, variables), query).toBe('NOT_FOUND');
      // Still there for the owner.
      const mine = await ok(
        owner,
        'query($p: ID!) { alertRules(projectId: $p) { id } webhookEndpoints(projectId: $p) { id } }',
        {
          p: project.id,
        },
      );
      expect(mine.alertRules).toHaveLength(1);
      expect(mine.webhookEndpoints).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('API keys read on Pro, write on Enterprise; e-mail preferences are a signed-in member’s', async () => {
    const pro = await signUp(t, { plan: 'PRO' });
    const project = await aProject({ org: { t, id: pro.organizationId, plan: 'PRO', owner: pro } });
    const key = { authorization: `Bearer ${await createApiKey(t, pro)}` };
    const input = { kind: 'PAGE_REGRESSION', channels: ['WEBHOOK'] };
    expect(await errorCode(t, key, 'query($p: ID!) { alertRules(projectId: $p) { id } }', { p: project.id })).toBe(
      undefined,
    );
    expect(await errorCode(t, key, CREATE_RULE, { p: project.id, i: input })).toBe('FORBIDDEN');
    expect(
      await errorCode(t, key, 'query($p: ID!) { alertEmailPreference(projectId: $p) { immediate } }', {
        p: project.id,
      }),
    ).toBe('FORBIDDEN');
    await t.runtime.pool.query('UPDATE "organization" SET plan = $1 WHERE id = $2', ['ENTERPRISE', pro.organizationId]);
    expect(await errorCode(t, key, CREATE_RULE, { p: project.id, i: input })).toBe(undefined);
  });

  it('shows the secret once, rotates it, and never lists it', async () => {
    const owner = await signUp(t);
    const { project, receiver, endpointId } = await setUp(owner);
    await receiver.close();
    const stored = (await t.runtime.pool.query('SELECT secret FROM webhook_endpoint WHERE id = $1', [endpointId]))
      .rows[0].secret as string;
    const box = new WebhookSecretBox(webhookKeyMaterial(t.config));
    const first = box.open(stored);
    expect(first).toMatch(/^whsec_/);
    expect(stored).not.toContain(first!.slice(6));
    const rotated = await ok(owner, 'mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret endpoint { id } } }', {
      id: endpointId,
    });
    expect(rotated.rotateWebhookSecret.secret).toMatch(/^whsec_/);
    expect(rotated.rotateWebhookSecret.secret).not.toBe(first);
    const again = (await t.runtime.pool.query('SELECT secret FROM webhook_endpoint WHERE id = $1', [endpointId]))
      .rows[0].secret as string;
    expect(box.open(again)).toBe(rotated.rotateWebhookSecret.secret);
    const listed = await gql(
      t,
      'query($p: ID!) { webhookEndpoints(projectId: $p) { id secret } }',
      { p: project.id },
      as(owner),
    );
    expect(listed.body.errors?.[0].message).toMatch(/Cannot query field "secret"/);
  });
});

describe('delivery answers', () => {
  it('does not follow a redirect (the POST is not replayed elsewhere) and logs it as a failed attempt', async () => {
    const hits: string[] = [];
    const server = createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      req.resume();
      res.writeHead(307, { location: '/elsewhere' }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const owner = await signUp(t);
      const project = await aProject({ org: { t, id: owner.organizationId, plan: 'FREE', owner } });
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      const created = await ok(owner, CREATE_ENDPOINT, { p: project.id, i: { url } });
      const endpointId = created.createWebhookEndpoint.endpoint.id;
      await ok(owner, 'mutation($e: ID!) { sendTestWebhook(endpointId: $e) { jobId } }', { e: endpointId });
      const log = await waitFor('the attempt logged', async () => {
        const d = (await ok(owner, DELIVERIES, { e: endpointId })).webhookDeliveries;
        return d.nodes.length > 0 && d;
      });
      const seen = JSON.stringify({ log: log.nodes, hits });
      expect(log.nodes[0], seen).toMatchObject({
        succeeded: false,
        statusCode: 307,
        error: 'The endpoint answered HTTP 307',
      });
      expect(hits, seen).toEqual(['POST /hook']);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('SSRF', () => {
  it('refuses an endpoint at a private address unless SAFE_HTTP_ALLOW admits it', async () => {
    const owner = await signUp(strict);
    const { body } = await gql(
      strict,
      'mutation($u: String!) { createProject(input: { url: $u }) { id } }',
      { u: `https://site-${uniq()}.example.com` },
      as(owner),
    );
    const projectId = body.data!.createProject.id;
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook',
      'http://10.0.0.7/',
      'http://[::1]/x',
      'http://169.254.169.254/latest',
    ]) {
      const res = await gql(strict, CREATE_ENDPOINT, { p: projectId, i: { url } }, as(owner));
      expect(res.body.errors?.[0]?.extensions?.code, url).toBe('BAD_USER_INPUT');
      expect(res.body.errors?.[0]?.message).toMatch(/private, loopback or reserved address/);
    }
    for (const url of ['ftp://hooks.example.com/', 'https://user:pw@hooks.example.com/', 'not a url'])
      expect(await errorCode(strict, as(owner), CREATE_ENDPOINT, { p: projectId, i: { url } }), url).toBe(
        'BAD_USER_INPUT',
      );
    // The app that allows 127.0.0.1 takes it (the other tests deliver to it).
    const allowed = await signUp(t);
    const project = await aProject({ org: { t, id: allowed.organizationId, plan: 'FREE', owner: allowed } });
    expect(
      await errorCode(t, as(allowed), CREATE_ENDPOINT, { p: project.id, i: { url: 'http://127.0.0.1:9/x' } }),
    ).toBe(undefined);
  });

  it('refuses at delivery a host name that resolves to a private address (logged, not retried)', async () => {
    const owner = await signUp(strict);
    const { body } = await gql(
      strict,
      'mutation($u: String!) { createProject(input: { url: $u }) { id } }',
      { u: `https://site-${uniq()}.example.com` },
      as(owner),
    );
    const projectId = body.data!.createProject.id;
    // The name is not resolved when the endpoint is saved; it resolves to 127.0.0.1 when a delivery connects.
    const created = await gql(
      strict,
      CREATE_ENDPOINT,
      { p: projectId, i: { url: 'http://hooks.rebind.example/x' } },
      as(owner),
    );
    const endpointId = created.body.data!.createWebhookEndpoint.endpoint.id;
    const config = { ...strict.config, SAFE_HTTP_RESOLVE: 'hooks.rebind.example=127.0.0.1' };
    const client = createConfiguredSafeHttpClient(config);
    try {
      const runner = new WebhookDeliveryRunner(
        strict.runtime.orm.em,
        client,
        new WebhookSecretBox(webhookKeyMaterial(strict.config)),
        createAddressPolicy(parseAllowList('')),
        { timeoutMs: 5_000 },
        strict.runtime.logger,
      );
      const sent = await gql(
        strict,
        'mutation($e: ID!) { sendTestWebhook(endpointId: $e) { eventId } }',
        { e: endpointId },
        as(owner),
      );
      const eventId = sent.body.data!.sendTestWebhook.eventId;
      const outcome = await runner.deliver({ eventId, endpointId }, 1);
      expect(outcome).toMatchObject({ status: 'FAILED', retry: false });
      const log = await gql(strict, DELIVERIES, { e: endpointId }, as(owner));
      expect(log.body.data!.webhookDeliveries.nodes[0]).toMatchObject({
        succeeded: false,
        statusCode: null,
        error: expect.stringMatching(/^Refused: .*loopback/),
      });
    } finally {
      await client.close();
    }
  });
});
