import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, gql, reportQueueError, uniq, type TestApp, type TestUser } from '../support/app.js';
import { anApiKey, anOrg, type Org } from '../factories.js';
import { QUEUES, createQueue, type Queue } from '../../src/platform/queues.js';
import { createRedis, type Redis } from '../../src/platform/redis.js';
import { AuditService, type AuditJobData } from '../../src/audits/index.js';
import { AuditScheduleService, auditSchedulerId, type ScheduledAuditJobData } from '../../src/schedules/index.js';
import { ProjectService, nextAuditRunAt, previousAuditRunAt } from '../../src/projects/index.js';

/**
 * Scheduled audits through the API (GraphQL and both REST surfaces) and the scheduler's rules in one process: the job
 * scheduler follows the stored schedule, a slot starts one audit however many jobs fire for it, a refusal is recorded
 * with its reason. test/integration/audit-schedule-week.test.ts runs them with two worker processes over a simulated
 * week, and tests the reconcilers (on a database of its own: a reconciler reads every scheduled project).
 */
let t: TestApp;
let t2: TestApp;
let redis: Redis;
let auditQueue: Queue<AuditJobData>;
let scheduleQueue: Queue<ScheduledAuditJobData>;
let schedules: AuditScheduleService;
let ownerOrg: Org;
const created: string[] = [];

beforeAll(async () => {
  const prefix = `sched-${uniq()}`;
  t = await createTestApp({ REDIS_PREFIX: prefix });
  // A second API process on the same Redis and database.
  t2 = await createTestApp({ REDIS_PREFIX: prefix });
  redis = createRedis(t.config.REDIS_URL, { name: `${prefix}-test` });
  auditQueue = createQueue<AuditJobData>(QUEUES.audit, redis, prefix, reportQueueError);
  scheduleQueue = createQueue<ScheduledAuditJobData>(QUEUES.audit, redis, prefix, reportQueueError);
  const projects = new ProjectService(t.config);
  schedules = new AuditScheduleService(projects, new AuditService(t.config, projects, auditQueue), scheduleQueue);
  ownerOrg = await anOrg(t, { plan: 'ENTERPRISE' });
});

afterAll(async () => {
  // The test database is shared: no schedule of this file stays on to fire in another run's workers.
  if (created.length) await t.runtime.pool.query('DELETE FROM project WHERE id = ANY($1::uuid[])', [created]);
  await Promise.all([auditQueue.close(), scheduleQueue.close()]);
  await redis.quit();
  await t2.close();
  await t.close();
});

const SCHEDULE_FIELDS = 'auditSchedule { frequency time timeZone dayOfWeek dayOfMonth nextRunAt }';

async function newProject(user: TestUser = ownerOrg.owner, auditSchedule?: Record<string, unknown>) {
  const res = await gql(
    t,
    `mutation($i: CreateProjectInput!) { createProject(input: $i) { id ${SCHEDULE_FIELDS} } }`,
    { i: { url: `https://sched-${uniq()}.example.com`, ...(auditSchedule ? { auditSchedule } : {}) } },
    { cookie: user.cookie },
  );
  if (!res.body.data) throw new Error(JSON.stringify(res.body.errors));
  created.push(res.body.data.createProject.id);
  return res.body.data.createProject as { id: string; auditSchedule: Record<string, unknown> };
}

function setSchedule(id: string, auditSchedule: Record<string, unknown>, app = t, user = ownerOrg.owner) {
  return gql(
    app,
    `mutation($id: ID!, $i: UpdateProjectInput!) { updateProject(id: $id, input: $i) { id ${SCHEDULE_FIELDS} } }`,
    { id, i: { auditSchedule } },
    { cookie: user.cookie },
  );
}

const schedulerOf = async (projectId: string) =>
  (await scheduleQueue.getJobSchedulers()).filter((s) => s.key === auditSchedulerId(projectId));

const runRows = async (projectId: string) =>
  (
    await t.runtime.pool.query(
      `SELECT slot_at, outcome, reason, audit_id FROM scheduled_audit_run WHERE project_id = $1 ORDER BY slot_at`,
      [projectId],
    )
  ).rows as { slot_at: Date; outcome: string; reason: string | null; audit_id: string | null }[];

/** The last daily run time at or before now. */
const lastSlot = (schedule: { frequency: 'DAILY'; time: string; timeZone: string }) =>
  previousAuditRunAt({ ...schedule, dayOfWeek: null, dayOfMonth: null }, Date.now())!.getTime();

describe('the schedule through GraphQL', () => {
  it('is OFF by default; set, it is stored, its scheduler follows, and nextRunAt is the next local time', async () => {
    const project = await newProject();
    expect(project.auditSchedule).toEqual({
      frequency: 'OFF',
      time: '09:00',
      timeZone: 'UTC',
      dayOfWeek: null,
      dayOfMonth: null,
      nextRunAt: null,
    });
    expect(await schedulerOf(project.id)).toEqual([]);

    const before = Date.now();
    const res = await setSchedule(project.id, { frequency: 'DAILY', time: '7:30', timeZone: 'europe/berlin' });
    const schedule = res.body.data.updateProject.auditSchedule;
    expect(schedule).toMatchObject({ frequency: 'DAILY', time: '07:30', timeZone: 'Europe/Berlin' });
    const next = Date.parse(schedule.nextRunAt);
    expect(next).toBeGreaterThan(before);
    expect(next - before).toBeLessThanOrEqual(24 * 3600_000);
    expect(
      new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit' }).format(next),
    ).toBe('07:30');
    const [scheduler] = await schedulerOf(project.id);
    expect(scheduler).toMatchObject({ pattern: '30 7 * * *', tz: 'Europe/Berlin', name: 'scheduled-audit' });
    expect(scheduler.next).toBe(next);

    // Weekly on Sundays (ISO 7 = cron 0), then OFF: the scheduler goes.
    const weekly = await setSchedule(project.id, { frequency: 'WEEKLY', dayOfWeek: 7 });
    expect(weekly.body.data.updateProject.auditSchedule).toMatchObject({ frequency: 'WEEKLY', dayOfWeek: 7 });
    expect((await schedulerOf(project.id))[0]).toMatchObject({ pattern: '30 7 * * 0', tz: 'Europe/Berlin' });
    const off = await setSchedule(project.id, { frequency: 'OFF' });
    expect(off.body.data.updateProject.auditSchedule).toMatchObject({ frequency: 'OFF', nextRunAt: null });
    expect(await schedulerOf(project.id)).toEqual([]);
  });

  it('createProject takes a schedule; deleting the project removes its scheduler', async () => {
    const project = await newProject(ownerOrg.owner, { frequency: 'MONTHLY', dayOfMonth: 31, time: '23:15' });
    expect(project.auditSchedule).toMatchObject({ frequency: 'MONTHLY', dayOfMonth: 31, timeZone: 'UTC' });
    expect((await schedulerOf(project.id))[0]).toMatchObject({ pattern: '15 23 L * *', tz: 'UTC' });
    const deleted = await gql(
      t,
      'mutation($id: ID!) { deleteProject(id: $id) { success } }',
      { id: project.id },
      {
        cookie: ownerOrg.owner.cookie,
      },
    );
    expect(deleted.body.data.deleteProject.success).toBe(true);
    expect(await schedulerOf(project.id)).toEqual([]);
  });

  it.each([
    [{ frequency: 'WEEKLY' }, 'auditSchedule.dayOfWeek'],
    [{ frequency: 'MONTHLY' }, 'auditSchedule.dayOfMonth'],
    [{ frequency: 'DAILY', time: '24:00' }, 'auditSchedule.time'],
    [{ frequency: 'DAILY', time: 'noon' }, 'auditSchedule.time'],
    [{ frequency: 'DAILY', timeZone: 'Mars/Olympus_Mons' }, 'auditSchedule.timeZone'],
    [{ frequency: 'WEEKLY', dayOfWeek: 8 }, 'auditSchedule.dayOfWeek'],
    [{ frequency: 'MONTHLY', dayOfMonth: 0 }, 'auditSchedule.dayOfMonth'],
  ])('refuses %j at %s (BAD_USER_INPUT), storing nothing', async (input, path) => {
    const project = await newProject();
    const res = await gql(
      t,
      'mutation($id: ID!, $i: UpdateProjectInput!) { updateProject(id: $id, input: $i) { id } }',
      { id: project.id, i: { auditSchedule: input } },
      { cookie: ownerOrg.owner.cookie },
    );
    expect(res.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(res.body.errors?.[0].extensions)).toContain(path);
    const { rows } = await t.runtime.pool.query('SELECT audit_schedule_frequency FROM project WHERE id = $1', [
      project.id,
    ]);
    expect(rows[0].audit_schedule_frequency).toBe('OFF');
  });

  it('two API processes setting the same schedule at once leave one scheduler and one pending job', async () => {
    const project = await newProject();
    const input = { frequency: 'DAILY', time: '04:10', timeZone: 'America/New_York' };
    const [a, b] = await Promise.all([setSchedule(project.id, input, t), setSchedule(project.id, input, t2)]);
    expect(a.body.errors).toBeUndefined();
    expect(b.body.errors).toBeUndefined();
    expect(await schedulerOf(project.id)).toHaveLength(1);
    const delayed = (await scheduleQueue.getDelayed()).filter((j) => j.data.projectId === project.id);
    expect(delayed).toHaveLength(1);
  });
});

describe('a scheduled run', () => {
  it('starts one audit per slot (with the plan quota of its organization); another job of it is a no-op', async () => {
    const freeOrg = await anOrg(t, { plan: 'FREE' });
    const project = await newProject(freeOrg.owner, { frequency: 'DAILY', time: '00:00', timeZone: 'UTC' });
    const slot = lastSlot({ frequency: 'DAILY', time: '00:00', timeZone: 'UTC' });
    const [first, second] = await Promise.all([
      schedules.runSlot(t.runtime.orm.em.fork(), project.id, slot),
      schedules.runSlot(t.runtime.orm.em.fork(), project.id, slot),
    ]);
    const kinds = [first.kind, second.kind].sort();
    expect(kinds).toEqual(['DUPLICATE', 'RECORDED']);
    const rows = await runRows(project.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ slot_at: new Date(slot), outcome: 'STARTED', reason: null });
    const { rows: audits } = await t.runtime.pool.query(
      'SELECT id, status, max_pages FROM audit WHERE project_id = $1',
      [project.id],
    );
    expect(audits).toEqual([{ id: rows[0].audit_id, status: 'QUEUED', max_pages: 100 }]);
    // Queued like a manual audit: its job waits on the audit queue.
    expect(await (await auditQueue.getJob(rows[0].audit_id!))?.getState()).toBe('waiting');

    // The next day's slot, while that audit is still queued: skipped, with the reason and the running audit.
    const next = nextAuditRunAt(
      { frequency: 'DAILY', time: '00:00', timeZone: 'UTC', dayOfWeek: null, dayOfMonth: null },
      slot,
    )!;
    const skipped = await schedules.runSlot(t.runtime.orm.em.fork(), project.id, next.getTime());
    expect(skipped).toMatchObject({
      kind: 'RECORDED',
      run: { outcome: 'SKIPPED', reason: 'ALREADY_RUNNING', message: 'An audit was already running.' },
    });
    const after = await runRows(project.id);
    expect(after.map((r) => [r.outcome, r.reason, r.audit_id])).toEqual([
      ['STARTED', null, rows[0].audit_id],
      ['SKIPPED', 'ALREADY_RUNNING', rows[0].audit_id],
    ]);
    const { rows: count } = await t.runtime.pool.query('SELECT count(*)::int AS n FROM audit WHERE project_id = $1', [
      project.id,
    ]);
    expect(count[0].n).toBe(1);

    // The runs are readable on the project, latest first, with their reason.
    const read = await gql(
      t,
      'query($id: ID!) { project(id: $id) { scheduledRuns(first: 5) { scheduledAt outcome reason message auditId } } }',
      { id: project.id },
      { cookie: freeOrg.owner.cookie },
    );
    expect(read.body.data.project.scheduledRuns).toEqual([
      {
        scheduledAt: next.toISOString(),
        outcome: 'SKIPPED',
        reason: 'ALREADY_RUNNING',
        message: 'An audit was already running.',
        auditId: rows[0].audit_id,
      },
      {
        scheduledAt: new Date(slot).toISOString(),
        outcome: 'STARTED',
        reason: null,
        message: null,
        auditId: rows[0].audit_id,
      },
    ]);
  });

  it('a job for a time the schedule does not run at (changed, or OFF) records and starts nothing', async () => {
    const project = await newProject(ownerOrg.owner, { frequency: 'DAILY', time: '06:00', timeZone: 'UTC' });
    const slot = lastSlot({ frequency: 'DAILY', time: '06:00', timeZone: 'UTC' });
    expect(await schedules.runSlot(t.runtime.orm.em.fork(), project.id, slot + 60_000)).toMatchObject({
      kind: 'IGNORED',
    });
    await setSchedule(project.id, { frequency: 'OFF' });
    expect(await schedules.runSlot(t.runtime.orm.em.fork(), project.id, slot)).toEqual({
      kind: 'IGNORED',
      why: 'the schedule is off',
    });
    expect(await runRows(project.id)).toEqual([]);
  });
});

describe('the schedule over REST', () => {
  it('Surface A: set with POST …/audit-schedule, read in the project list; bad values: 400 at the field', async () => {
    const project = await newProject();
    const key = await anApiKey(ownerOrg);
    const auth = { authorization: `Bearer ${key}` };
    const set = await t.app.inject({
      method: 'POST',
      url: `/api/v1/projects/${project.id}/audit-schedule`,
      headers: auth,
      payload: { frequency: 'MONTHLY', dayOfMonth: 30, time: '05:45', timeZone: 'America/New_York' },
    });
    expect(set.statusCode).toBe(200);
    const expected = {
      frequency: 'MONTHLY',
      time: '05:45',
      timeZone: 'America/New_York',
      dayOfWeek: null,
      dayOfMonth: 30,
      nextRunAt: nextAuditRunAt(
        { frequency: 'MONTHLY', time: '05:45', timeZone: 'America/New_York', dayOfWeek: null, dayOfMonth: 30 },
        Date.now(),
      )!.toISOString(),
    };
    expect(set.json()).toEqual({ auditSchedule: expected });
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/projects', headers: auth });
    const listed = list.json().projects.find((p: { id: string }) => p.id === project.id);
    expect(listed).toMatchObject({ id: project.id, _count: { audits: 0 }, auditSchedule: expected });

    const badZone = await t.app.inject({
      method: 'POST',
      url: `/api/v1/projects/${project.id}/audit-schedule`,
      headers: auth,
      payload: { timeZone: 'Nowhere/Special' },
    });
    expect(badZone.statusCode).toBe(400);
    expect(badZone.json()).toMatchObject({
      code: 'BAD_USER_INPUT',
      details: [{ path: 'auditSchedule.timeZone', message: expect.stringContaining('IANA') }],
    });
    for (const payload of [{ frequency: 'HOURLY' }, { dayOfWeek: 9 }, { every: 'day' }]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/projects/${project.id}/audit-schedule`,
        headers: auth,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('BAD_USER_INPUT');
    }
    // The refused calls changed nothing.
    const again = await t.app.inject({ method: 'GET', url: '/api/v1/projects', headers: auth });
    expect(again.json().projects.find((p: { id: string }) => p.id === project.id).auditSchedule).toEqual(expected);

    // A PRO key reads the schedule and cannot change it.
    const proOrg = await anOrg(t, { plan: 'PRO' });
    const proProject = await newProject(proOrg.owner);
    const proKey = await anApiKey(proOrg);
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/v1/projects/${proProject.id}/audit-schedule`,
      headers: { authorization: `Bearer ${proKey}` },
      payload: { frequency: 'DAILY' },
    });
    expect(refused.statusCode).toBe(403);
  });

  it('Surface B: created with a schedule, changed with POST …/audit-schedule, shown with its runs', async () => {
    const headers = { cookie: ownerOrg.owner.cookie, origin: t.config.baseUrl };
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers,
      payload: {
        url: `https://rest-${uniq()}.example.com/`,
        auditSchedule: { frequency: 'WEEKLY', dayOfWeek: 3, time: '22:00', timeZone: 'Australia/Sydney' },
      },
    });
    expect(made.statusCode).toBe(200);
    const project = made.json().project;
    created.push(project.id);
    expect(project.auditSchedule).toMatchObject({ frequency: 'WEEKLY', dayOfWeek: 3, timeZone: 'Australia/Sydney' });
    expect(
      new Date(project.auditSchedule.nextRunAt).toLocaleString('en-GB', {
        timeZone: 'Australia/Sydney',
        weekday: 'long',
      }),
    ).toBe('Wednesday');
    expect((await schedulerOf(project.id))[0]).toMatchObject({ pattern: '0 22 * * 3', tz: 'Australia/Sydney' });

    const changed = await t.app.inject({
      method: 'POST',
      url: `/api/projects/${project.id}/audit-schedule`,
      headers,
      payload: { frequency: 'OFF' },
    });
    expect(changed.json().auditSchedule).toMatchObject({ frequency: 'OFF', nextRunAt: null, dayOfWeek: 3 });
    expect(await schedulerOf(project.id)).toEqual([]);

    const detail = await t.app.inject({ method: 'GET', url: `/api/projects/${project.id}`, headers });
    expect(detail.json().project).toMatchObject({
      auditSchedule: { frequency: 'OFF', time: '22:00', timeZone: 'Australia/Sydney' },
      scheduledRuns: [],
    });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers,
      payload: { url: `https://rest-${uniq()}.example.com/`, auditSchedule: { frequency: 'MONTHLY' } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([{ path: 'auditSchedule.dayOfMonth', message: expect.any(String) }]);
  });
});
