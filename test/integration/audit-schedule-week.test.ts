import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { createTestApp, gql, reportQueueError, uniq, type TestApp } from '../support/app.js';
import { anOrg, type Org } from '../factories.js';
import { waitFor } from '../support/worker-process.js';
import { CLOCK_PRELOAD, isClockSet, type ClockMessage } from '../support/fake-clock.js';
import { generatedSite } from '../fixtures/sites/generated-site.js';
import { dropDatabase, migratedDatabase } from '../support/private-database.js';
import { QUEUES, createQueue, type Queue } from '../../src/platform/queues.js';
import { createRedis, type Redis } from '../../src/platform/redis.js';
import { isReadyMessage } from '../../src/platform/ready-signal.js';
import { AuditService, type AuditJobData } from '../../src/audits/index.js';
import {
  AuditScheduleService,
  SCHEDULED_AUDIT_JOB_NAME,
  auditSchedulerId,
  type ScheduledAuditJobData,
} from '../../src/schedules/index.js';
import { ProjectService, nextAuditRunAt, previousAuditRunAt, type AuditSchedule } from '../../src/projects/index.js';
import { dailySchedulerId, reconcileRankSchedules, type RankJobData } from '../../src/keywords/index.js';

/**
 * A project set to run daily, two audit worker processes whose clock the test moves a simulated week forward, and a
 * Redis that loses everything twice on the way: exactly seven audits, one per day, none twice. Then the reconcilers on
 * their own. Everything runs on a database and a Redis server of this file's own: a reconciler reads every scheduled
 * project of its database (on the shared test database, other files' workers would act on this file's projects), and
 * the Redis is flushed.
 */
const root = resolve(import.meta.dirname, '../..');
const DAY = 24 * 3600_000;
const host = `week-${uniq()}.test`;
const prefix = `week-${uniq()}`;
const databaseUrl = (() => {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/seo_audit_week_${uniq()}`;
  return url.toString();
})();

let redisServer: ChildProcess;
let redisUrl: string;
let redis: Redis;
let site: ReturnType<typeof generatedSite>;
let env: Record<string, string>;
let api: TestApp;
let api2: TestApp;
let ownerOrg: Org;
let scheduleQueue: Queue<ScheduledAuditJobData>;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** A Redis server for this file alone: nothing on disk, so a restart or a FLUSHALL leaves it empty. */
async function startRedisServer(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  await waitFor('redis-server ready', async () => out.includes('Ready to accept connections'), 15_000, 50);
  return child;
}

interface ClockedWorker {
  child: ChildProcess;
  output: string[];
  setClock(at: number): Promise<void>;
  stop(): Promise<void>;
}

/** An audit worker process (as `seo worker audit` runs it) on the test's clock. */
async function startClockedWorker(name: string): Promise<ClockedWorker> {
  const output: string[] = [];
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, LOG_LEVEL: 'info' };
  delete childEnv.CHROMIUM_PATH;
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', CLOCK_PRELOAD, 'workers/audit.worker.ts'], {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  child.stdout!.on('data', (d) => output.push(String(d)));
  child.stderr!.on('data', (d) => output.push(String(d)));
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  let ready = false;
  const acks: ((at: number) => void)[] = [];
  child.on('message', (m) => {
    if (isReadyMessage(m)) ready = true;
    if (isClockSet(m)) acks.shift()?.(m.at);
  });
  await waitFor(`${name} ready`, async () => ready || child.exitCode !== null, 60_000, 100);
  if (!ready) throw new Error(`${name} exited before it was ready:\n${output.join('')}`);
  return {
    child,
    output,
    setClock: (at) =>
      new Promise<void>((ok) => {
        acks.push(() => ok());
        child.send({ type: 'test:clock', at } satisfies ClockMessage);
      }),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

beforeAll(async () => {
  await migratedDatabase(databaseUrl);

  const port = await freePort();
  redisServer = await startRedisServer(port);
  redisUrl = `redis://127.0.0.1:${port}`;
  redis = createRedis(redisUrl, { name: `${prefix}-test` });
  site = generatedSite(3, 0);
  const sitePort = await site.listen();
  env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    SAFE_HTTP_ALLOW: '127.0.0.1/32',
    SAFE_HTTP_RESOLVE: `${host}=127.0.0.1`,
    // The reconcilers look at the database every second (the default is every five minutes).
    SCHEDULE_RECONCILE_MS: '1000',
    WORKER_CONCURRENCY: '2',
    // The sweeper stays out of it: this test is about the schedulers.
    AUDIT_SWEEP_INTERVAL_MS: '0',
    AUDIT_PARSE_THREADS: '0',
  };
  api = await createTestApp(env);
  api2 = await createTestApp(env);
  ownerOrg = await anOrg(api, { plan: 'ENTERPRISE' });
  const created = await gql(
    api,
    'mutation($i: CreateProjectInput!) { createProject(input: $i) { id } }',
    { i: { url: `http://${host}:${sitePort}/`, name: 'Week' } },
    { cookie: ownerOrg.owner.cookie },
  );
  projectId = created.body.data.createProject.id;
  scheduleQueue = createQueue<ScheduledAuditJobData>(QUEUES.audit, redis, prefix, reportQueueError);
}, 120_000);

afterAll(async () => {
  await scheduleQueue?.close();
  redis?.disconnect();
  await api2?.close();
  await api?.close();
  await site?.close();
  redisServer?.kill('SIGKILL');
  await dropDatabase(databaseUrl);
}, 60_000);

let projectId: string;

const runs = async () =>
  (
    await api.runtime.pool.query(
      `SELECT r.slot_at, r.outcome, r.reason, r.audit_id, a.status FROM scheduled_audit_run r
        LEFT JOIN audit a ON a.id = r.audit_id WHERE r.project_id = $1 ORDER BY r.slot_at`,
      [projectId],
    )
  ).rows as { slot_at: Date; outcome: string; reason: string | null; audit_id: string | null; status: string | null }[];

const audits = async () =>
  (await api.runtime.pool.query('SELECT id, status FROM audit WHERE project_id = $1', [projectId])).rows as {
    id: string;
    status: string;
  }[];

describe('a daily schedule over a simulated week', () => {
  it('runs exactly one audit a day across two workers, through two Redis flushes', async () => {
    // A time a few minutes from now, in Berlin: the first run is today or tomorrow, then one a day.
    const start = new Date(Date.now() + 10 * 60_000);
    const time = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(start);
    const schedule: AuditSchedule = {
      frequency: 'DAILY',
      time,
      timeZone: 'Europe/Berlin',
      dayOfWeek: null,
      dayOfMonth: null,
    };

    // Two API processes store the same schedule at the same moment: one scheduler, one pending job.
    const set = (app: TestApp) =>
      gql(
        app,
        'mutation($id: ID!, $i: UpdateProjectInput!) { updateProject(id: $id, input: $i) { ' +
          'auditSchedule { nextRunAt } } }',
        { id: projectId, i: { auditSchedule: { frequency: 'DAILY', time, timeZone: 'Europe/Berlin' } } },
        { cookie: ownerOrg.owner.cookie },
      );
    const [a, b] = await Promise.all([set(api), set(api2)]);
    const slots = [nextAuditRunAt(schedule, Date.now())!.getTime()];
    for (let i = 1; i < 7; i++) slots.push(nextAuditRunAt(schedule, slots[i - 1])!.getTime());
    expect(a.body.data.updateProject.auditSchedule.nextRunAt).toBe(new Date(slots[0]).toISOString());
    expect(b.body.data.updateProject.auditSchedule.nextRunAt).toBe(new Date(slots[0]).toISOString());
    expect((await scheduleQueue.getJobSchedulers()).map((s) => [s.key, s.next])).toEqual([
      [auditSchedulerId(projectId), slots[0]],
    ]);
    expect(await scheduleQueue.getDelayedCount()).toBe(1);

    const workers = [await startClockedWorker('worker 1'), await startClockedWorker('worker 2')];
    onTestFailed(() => {
      for (const [i, w] of workers.entries()) process.stderr.write(`--- worker ${i + 1}\n${w.output.join('')}\n`);
    });
    const setClocks = (at: number) => Promise.all(workers.map((w) => w.setClock(at)));
    // A worker waiting for a delayed job blocks on Redis for up to 10 s before it looks at the clock again: two
    // markers wake both at once (what a newly added job would do), instead of waiting that long after each move.
    const nudge = () => redis.zadd(`${prefix}:bull:audit:marker`, 0, 'nudge-1', 0, 'nudge-2');
    const schedulerNext = async () =>
      (await scheduleQueue.getJobSchedulers()).find((s) => s.key === auditSchedulerId(projectId))?.next;

    try {
      for (const [day, slot] of slots.entries()) {
        if (day === 1) {
          // Another job for the same run time, due at the same moment (two schedulers firing): one claims the slot.
          await scheduleQueue.add(
            SCHEDULED_AUDIT_JOB_NAME,
            { projectId, slotAt: slot },
            { jobId: `duplicate-${uniq()}`, delay: slot - Date.now() },
          );
        }
        if (day === 3) {
          // Redis loses everything an hour before the day's run; the reconcilers put the scheduler back.
          await setClocks(slot - 3600_000);
          expect(await redis.flushall()).toBe('OK');
          await waitFor('scheduler re-created', async () => (await schedulerNext()) === slot, 20_000, 100);
        }
        if (day === 5) {
          // Redis loses everything ten seconds before the day's run and the clocks pass it at once: whether a
          // reconciler put the scheduler back in time or caught the missed run up afterwards, it runs once.
          await setClocks(slot - 10_000);
          await redis.flushall();
        }
        await setClocks(slot + 5_000);
        await nudge();
        const done = await waitFor(
          `day ${day + 1}: its audit completed`,
          async () => {
            const rows = await runs();
            return rows.length === day + 1 && rows[day].status === 'COMPLETED' ? rows : null;
          },
          30_000,
          100,
        );
        expect(done[day]).toMatchObject({ slot_at: new Date(slot), outcome: 'STARTED', reason: null });
      }

      // Most of a day later nothing more has run: the next run is the eighth day's.
      await setClocks(slots[6] + 20 * 3600_000);
      await nudge();
      await new Promise((r) => setTimeout(r, 3_000));
      await waitFor('next run scheduled', async () => (await schedulerNext()) === slots[6] + DAY || null, 10_000);
      const week = await runs();
      expect(week.map((r) => r.slot_at.getTime())).toEqual(slots);
      expect(week.every((r) => r.outcome === 'STARTED' && r.status === 'COMPLETED')).toBe(true);
      const all = await audits();
      expect(all).toHaveLength(7);
      expect(new Set(week.map((r) => r.audit_id))).toEqual(new Set(all.map((r) => r.id)));
      // The duplicate job of the second day found the slot claimed.
      const log = workers.flatMap((w) => w.output).join('');
      expect(log).toContain('"kind":"DUPLICATE"');
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
  }, 150_000);
});

describe('the reconcilers, in one process', () => {
  const daily = (time: string, timeZone: string): AuditSchedule => ({
    frequency: 'DAILY',
    time,
    timeZone,
    dayOfWeek: null,
    dayOfMonth: null,
  });
  let schedules: AuditScheduleService;
  let auditQueue: Queue<AuditJobData>;
  let rankQueue: Queue<RankJobData>;
  beforeAll(() => {
    auditQueue = createQueue<AuditJobData>(QUEUES.audit, redis, prefix, reportQueueError);
    rankQueue = createQueue<RankJobData>(QUEUES.rank, redis, prefix, reportQueueError);
    const projects = new ProjectService(api.config);
    schedules = new AuditScheduleService(projects, new AuditService(api.config, projects, auditQueue), scheduleQueue);
  });
  afterAll(async () => {
    await auditQueue?.close();
    await rankQueue?.close();
  });

  async function scheduledProject(schedule: AuditSchedule): Promise<string> {
    const { frequency, time, timeZone } = schedule;
    const res = await gql(
      api,
      'mutation($i: CreateProjectInput!) { createProject(input: $i) { id } }',
      { i: { url: `https://recon-${uniq()}.example.com/`, auditSchedule: { frequency, time, timeZone } } },
      { cookie: ownerOrg.owner.cookie },
    );
    return res.body.data.createProject.id;
  }
  const schedulerOf = async (id: string) =>
    (await scheduleQueue.getJobSchedulers()).filter((s) => s.key === auditSchedulerId(id));
  const waitingFor = async (id: string) =>
    (await scheduleQueue.getWaiting()).filter((j) => j.data.projectId === id).map((j) => j.data.slotAt);

  it('re-creates a scheduler Redis lost, catches up the run time it missed once, leaves right ones alone', async () => {
    const schedule = daily('12:00', 'Asia/Tokyo');
    const id = await scheduledProject(schedule);
    // The schedule was set two days ago: its last run time passed since, with no run claimed.
    await api.runtime.pool.query(
      `UPDATE project SET audit_schedule_changed_at = now() - interval '2 days' WHERE id = $1`,
      [id],
    );
    await scheduleQueue.removeJobScheduler(auditSchedulerId(id));
    const first = await schedules.reconcile(api.runtime.orm.em.fork());
    expect(first.created).toEqual([auditSchedulerId(id)]);
    expect((await schedulerOf(id))[0]).toMatchObject({ pattern: '0 12 * * *', tz: 'Asia/Tokyo' });
    expect(await waitingFor(id)).toEqual([previousAuditRunAt(schedule, Date.now())!.getTime()]);

    // Nothing to do the second time: every scheduler is kept as it is, no second catch-up is queued.
    const second = await schedules.reconcile(api.runtime.orm.em.fork());
    expect(second).toMatchObject({ created: [], updated: [], removed: [] });
    expect(await waitingFor(id)).toHaveLength(1);

    // Another pattern in Redis than in the database: replaced; OFF in the database: removed.
    await scheduleQueue.upsertJobScheduler(auditSchedulerId(id), { pattern: '0 13 * * *', tz: 'Asia/Tokyo' });
    expect((await schedules.reconcile(api.runtime.orm.em.fork())).updated).toEqual([auditSchedulerId(id)]);
    expect((await schedulerOf(id))[0]).toMatchObject({ pattern: '0 12 * * *' });
    await api.runtime.pool.query(`UPDATE project SET audit_schedule_frequency = 'OFF' WHERE id = $1`, [id]);
    expect((await schedules.reconcile(api.runtime.orm.em.fork())).removed).toEqual([auditSchedulerId(id)]);
    expect(await schedulerOf(id)).toEqual([]);
  });

  it('no catch-up for a run time before the schedule was set', async () => {
    const id = await scheduledProject(daily('00:01', 'UTC'));
    await scheduleQueue.removeJobScheduler(auditSchedulerId(id));
    expect((await schedules.reconcile(api.runtime.orm.em.fork())).created).toEqual([auditSchedulerId(id)]);
    expect(await schedulerOf(id)).toHaveLength(1);
    expect(await waitingFor(id)).toEqual([]);
  });

  it('puts back the daily rank schedule of a project with keywords, and removes one without keywords', async () => {
    const id = await scheduledProject({ ...daily('09:00', 'UTC'), frequency: 'OFF' });
    const added = await gql(
      api,
      'mutation($p: ID!, $i: AddKeywordsInput!) { addKeywords(projectId: $p, input: $i) { id } }',
      { p: id, i: { keywords: ['garden tools'] } },
      { cookie: ownerOrg.owner.cookie },
    );
    expect(added.body.errors).toBeUndefined();
    const rankSchedulers = async () => (await rankQueue.getJobSchedulers()).map((s) => s.key);
    expect(await rankSchedulers()).toEqual([dailySchedulerId(id)]);
    await redis.flushall();
    const report = await reconcileRankSchedules(rankQueue, api.runtime.orm.em.fork());
    expect(report.created).toEqual([dailySchedulerId(id)]);
    expect(await rankSchedulers()).toEqual([dailySchedulerId(id)]);
    await api.runtime.pool.query('DELETE FROM keyword WHERE project_id = $1', [id]);
    const removed = await reconcileRankSchedules(rankQueue, api.runtime.orm.em.fork());
    expect(removed.removed).toEqual([dailySchedulerId(id)]);
    expect(await rankSchedulers()).toEqual([]);
  });
});
