import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLifecycle as lifecycle, type AuditStatus } from '../../src/audits/index.js';
import { nativeTransaction } from '../../src/platform/db/native-query.js';
import { newId } from '../../src/platform/ids.js';
import type { ScoreBreakdown } from '../../src/seo/scoring/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { anOrg, aProject, type Org } from '../factories.js';

/**
 * Every transition of audit-lifecycle.ts from every status, on real PostgreSQL: the legal ones happen (true, and
 * the row says so), the illegal ones do not (false, and the row is exactly as it was). Then the races: two
 * processes finishing the same audit, of which exactly one wins.
 */

let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await createTestApp();
  org = await anOrg(t, { plan: 'ENTERPRISE' });
});
afterAll(() => t.close());

const STATUSES: AuditStatus[] = ['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED'];
const FINAL: AuditStatus[] = ['COMPLETED', 'FAILED', 'CANCELLED'];
const SCORES = { overall: 80, meta: 81, content: 82, links: 83, technical: 84, performance: 85 };
const BREAKDOWN: ScoreBreakdown = {
  health: 75,
  htmlPages: 12,
  pagesWithCritical: 3,
  checksApplied: 80,
  checksPassed: 79,
  labPerformance: null,
  costs: [
    { code: 'META_TITLE_MISSING', category: 'META', severity: 'CRITICAL', scope: 'page', affectedPages: 3, points: 25 },
  ],
  cappedFrom: null,
  blockers: [],
};

interface Row {
  id: string;
  project_id: string;
  status: AuditStatus;
  phase: string | null;
  attempts: number;
  error: string | null;
  overall_score: number | null;
  score_breakdown: unknown;
  pages_crawled: number;
  pages_failed: number;
  pages_discovered: number | null;
  crawl_truncated: boolean;
  unchecked_links: unknown;
  started_at: Date | null;
  completed_at: Date | null;
}

/**
 * An audit in `status` as the platform leaves it there (a phase only while RUNNING; final ones completed), on a project
 * of its own.
 */
async function auditIn(status: AuditStatus, attempts = 1): Promise<Row> {
  const project = await aProject({ org });
  const id = newId();
  const final = FINAL.includes(status);
  await t.runtime.pool.query(
    `INSERT INTO audit (id, project_id, status, phase, job_id, pages_crawled, pages_queued, pages_failed, ` +
      `max_pages, attempts, error,
       created_at, started_at, completed_at)
     VALUES ($1, $2, $3, $4, $5, 7, 3, 1, 100, $6, $7, now() - interval '1 hour', $8, $9)`,
    [
      id,
      project.id,
      status,
      status === 'RUNNING' ? 'ANALYZING' : null,
      id,
      attempts,
      status === 'FAILED' ? 'It broke.' : status === 'CANCELLED' ? 'Cancelled by a user.' : null,
      status === 'QUEUED' ? null : new Date(Date.now() - 600_000),
      final ? new Date(Date.now() - 60_000) : null,
    ],
  );
  return row(id);
}

const row = async (id: string): Promise<Row> =>
  (
    await t.runtime.pool.query(
      `SELECT id, project_id, status, phase, attempts, error, overall_score, score_breakdown, pages_crawled, ` +
        `pages_failed, pages_discovered, crawl_truncated, unchecked_links, ` +
        `started_at, completed_at
       FROM audit WHERE id = $1`,
      [id],
    )
  ).rows[0];

const CRAWL = {
  pagesDiscovered: 40,
  truncated: true,
  uncheckedLinks: [{ url: 'https://gone.example/', reason: 'The host name did not resolve' }],
};

const db = () => t.runtime.orm.em;
const completeIn = (run: lifecycle.AuditAttempt) =>
  nativeTransaction(db(), (tx) =>
    lifecycle.complete(tx, run, {
      scores: SCORES,
      breakdown: BREAKDOWN,
      pagesCrawled: 12,
      pagesFailed: 2,
      crawl: CRAWL,
      counts: {
        urlsCrawled: 12,
        htmlPages: 10,
        indexablePages: 9,
        externalLinks: { found: 3, checked: 2, couldNotCheck: 1 },
        resources: { found: 0, checked: 0 },
        labPages: { measured: 0, eligible: 10 },
      },
    }),
  );

/** A refused transition: false, and not one column of the row changed. */
async function expectRefused(before: Row, transition: Promise<boolean | unknown[] | object | null>): Promise<void> {
  const result = await transition;
  expect(Array.isArray(result) ? result.length : result).toBeFalsy();
  expect(await row(before.id)).toEqual(before);
}

describe('audit lifecycle: every transition from every status', () => {
  it('create: (none) -> QUEUED, unless the project already has a queued or running audit', async () => {
    const project = await aProject({ org });
    const id = newId();
    const created = await lifecycle.create(db(), { id, projectId: project.id, maxPages: 50, createdAt: new Date() });
    expect(created).toMatchObject({
      id,
      projectId: project.id,
      jobId: id,
      status: 'QUEUED',
      phase: null,
      attempts: 0,
      maxPages: 50,
      pagesFailed: 0,
    });
    expect((await row(id)).status).toBe('QUEUED');
    // A second one is refused while the first is QUEUED, and while it is RUNNING.
    expect(
      await lifecycle.create(db(), { id: newId(), projectId: project.id, maxPages: 50, createdAt: new Date() }),
    ).toBeNull();
    await lifecycle.claim(db(), id);
    expect(
      await lifecycle.create(db(), { id: newId(), projectId: project.id, maxPages: 50, createdAt: new Date() }),
    ).toBeNull();
    // Once it is final, the project can have a new audit.
    for (const status of FINAL) {
      const done = await auditIn(status);
      const next = await lifecycle.create(db(), {
        id: newId(),
        projectId: done.project_id,
        maxPages: 10,
        createdAt: new Date(),
      });
      expect(next?.status, status).toBe('QUEUED');
    }
  });

  it.each(STATUSES)('claim from %s', async (status) => {
    const before = await auditIn(status, 2);
    if (status === 'QUEUED' || status === 'RUNNING') {
      // A RUNNING audit is claimed again when its job's lock expired: the attempt number moves on.
      expect(await lifecycle.claim(db(), before.id)).toEqual({ auditId: before.id, attempt: 3 });
      expect(await row(before.id)).toMatchObject({
        status: 'RUNNING',
        phase: 'CRAWLING',
        attempts: 3,
        error: null,
        pages_crawled: 0,
        pages_failed: 0,
      });
    } else await expectRefused(before, lifecycle.claim(db(), before.id));
  });

  it.each(STATUSES)('enterPhase from %s', async (status) => {
    const before = await auditIn(status, 2);
    if (status === 'RUNNING') {
      await expectRefused(before, lifecycle.enterPhase(db(), { auditId: before.id, attempt: 1 }, 'SAVING'));
      expect(await lifecycle.enterPhase(db(), { auditId: before.id, attempt: 2 }, 'SAVING')).toBe(true);
      expect(await row(before.id)).toMatchObject({ status: 'RUNNING', phase: 'SAVING' });
    } else await expectRefused(before, lifecycle.enterPhase(db(), { auditId: before.id, attempt: 2 }, 'SAVING'));
  });

  it.each(STATUSES)('complete from %s', async (status) => {
    const before = await auditIn(status, 2);
    if (status === 'RUNNING') {
      // Only the attempt that holds the audit: an earlier (superseded) run completes nothing.
      await expectRefused(before, completeIn({ auditId: before.id, attempt: 1 }));
      expect(await completeIn({ auditId: before.id, attempt: 2 })).toBe(true);
      const after = await row(before.id);
      expect(after).toMatchObject({
        status: 'COMPLETED',
        phase: null,
        overall_score: 80,
        score_breakdown: BREAKDOWN,
        pages_crawled: 12,
        pages_failed: 2,
        pages_discovered: 40,
        crawl_truncated: true,
        unchecked_links: CRAWL.uncheckedLinks,
        error: null,
      });
      expect(after.completed_at).toBeInstanceOf(Date);
    } else await expectRefused(before, completeIn({ auditId: before.id, attempt: 2 }));
  });

  it.each(STATUSES)('failAttempt from %s', async (status) => {
    const before = await auditIn(status, 2);
    const failIt = (attempt: number) =>
      lifecycle.failAttempt(db(), { auditId: before.id, attempt }, 'The site answered 500.', {
        pagesCrawled: 1,
        pagesFailed: 1,
      });
    if (status === 'RUNNING') {
      await expectRefused(before, failIt(1));
      expect(await failIt(2)).toBe(true);
      expect(await row(before.id)).toMatchObject({
        status: 'FAILED',
        phase: null,
        error: 'The site answered 500.',
        pages_crawled: 1,
        pages_failed: 1,
      });
    } else await expectRefused(before, failIt(2));
  });

  it.each(STATUSES)('fail from %s', async (status) => {
    const before = await auditIn(status);
    if (status === 'QUEUED' || status === 'RUNNING') {
      expect(await lifecycle.fail(db(), before.id, 'Gave up.')).toBe(true);
      const after = await row(before.id);
      expect(after).toMatchObject({ status: 'FAILED', phase: null, error: 'Gave up.' });
      expect(after.completed_at).toBeInstanceOf(Date);
    } else await expectRefused(before, lifecycle.fail(db(), before.id, 'Gave up.'));
  });

  it.each(STATUSES)('requeue from %s', async (status) => {
    const before = await auditIn(status);
    if (status === 'RUNNING') {
      expect(await lifecycle.requeue(db(), before.id, 'Attempt 1 failed; retrying.')).toBe(true);
      expect(await row(before.id)).toMatchObject({
        status: 'QUEUED',
        phase: null,
        error: 'Attempt 1 failed; retrying.',
      });
    } else {
      // FAILED -> QUEUED in particular: a failed audit is not retried; running the project again creates a new audit.
      await expectRefused(before, lifecycle.requeue(db(), before.id, 'again'));
    }
  });

  it.each(STATUSES)('cancel from %s, by id and by project', async (status) => {
    for (const byId of [true, false]) {
      const before = await auditIn(status);
      const cancel = lifecycle.cancel(
        db(),
        { projectId: before.project_id, auditId: byId ? before.id : null },
        'Cancelled by a user.',
      );
      if (status === 'QUEUED' || status === 'RUNNING') {
        expect(await cancel).toEqual([{ id: before.id, jobId: before.id }]);
        const after = await row(before.id);
        expect(after).toMatchObject({ status: 'CANCELLED', phase: null, error: 'Cancelled by a user.' });
        expect(after.completed_at).toBeInstanceOf(Date);
      } else await expectRefused(before, cancel);
    }
  });

  it.each([...STATUSES, 'COMPLETED (readable)' as const])('finalizeExternal from %s', async (status) => {
    const readable = status === 'COMPLETED (readable)';
    const before = await auditIn(readable ? 'COMPLETED' : status, 2);
    const owed = async () =>
      (await t.runtime.pool.query('SELECT 1 FROM alert_evaluation WHERE audit_id = $1', [before.id])).rowCount;
    const finalize = (attempt: number) =>
      nativeTransaction(db(), (tx) =>
        lifecycle.finalizeExternal(
          tx,
          { auditId: before.id, attempt },
          {
            scores: { ...SCORES, overall: 70 },
            breakdown: BREAKDOWN,
            crawl: CRAWL,
            counts: {
              urlsCrawled: 12,
              htmlPages: 10,
              indexablePages: 9,
              externalLinks: { found: 3, checked: 3, couldNotCheck: 0 },
              resources: { found: 0, checked: 0 },
              labPages: { measured: 0, eligible: 10 },
            },
          },
        ),
      );
    if (!readable) return expectRefused(before, finalize(2));
    await t.runtime.pool.query('UPDATE audit SET external_links_final = false WHERE id = $1', [before.id]);
    const pending = await row(before.id);
    // Only the attempt that completed it, once.
    await expectRefused(pending, finalize(1));
    expect(await owed()).toBe(0);
    expect(await finalize(2)).toBe(true);
    expect(await row(before.id)).toMatchObject({ status: 'COMPLETED', overall_score: 70 });
    expect(await owed()).toBe(1);
    expect(await finalize(2)).toBe(false);
  });

  it.each([...STATUSES, 'COMPLETED (readable)' as const])('finalizeExternalSeen from %s', async (status) => {
    const readable = status === 'COMPLETED (readable)';
    const before = await auditIn(readable ? 'COMPLETED' : status, 2);
    const seen = { id: before.id, status: before.status as 'COMPLETED', attempts: 2 };
    if (!readable) return expectRefused(before, lifecycle.finalizeExternalSeen(db(), seen));
    await t.runtime.pool.query(
      `UPDATE audit SET external_links_final = false,
         counts = '{"externalLinks": {"found": 9, "checked": 4, "couldNotCheck": 0, "pending": 5}}' WHERE id = $1`,
      [before.id],
    );
    // As seen: another attempt is not this one.
    expect(await lifecycle.finalizeExternalSeen(db(), { ...seen, attempts: 1 })).toBe(false);
    expect(await lifecycle.finalizeExternalSeen(db(), seen)).toBe(true);
    const { rows } = await t.runtime.pool.query(
      'SELECT status, external_links_final AS final, counts FROM audit WHERE id = $1',
      [before.id],
    );
    expect(rows[0]).toMatchObject({ status: 'COMPLETED', final: true });
    expect(rows[0].counts.externalLinks).toMatchObject({ pending: 0, workerStopped: 5 });
    expect(await lifecycle.finalizeExternalSeen(db(), seen)).toBe(false);
  });

  it('cancel by id touches that audit only, and only within the project named', async () => {
    const a = await auditIn('RUNNING');
    const b = await auditIn('QUEUED');
    await expectRefused(a, lifecycle.cancel(db(), { projectId: b.project_id, auditId: a.id }, 'x'));
    expect((await row(b.id)).status).toBe('QUEUED');
  });

  it.each(STATUSES)('requeueSeen and failSeen from %s, as the sweeper saw it', async (status) => {
    for (const transition of ['requeueSeen', 'failSeen'] as const) {
      const before = await auditIn(status, 2);
      const apply = (seen: lifecycle.SeenAudit) =>
        transition === 'requeueSeen'
          ? lifecycle.requeueSeen(db(), seen, 'Queued again: its job was lost.')
          : lifecycle.failSeen(db(), seen, 'Its job failed.');
      if (status === 'QUEUED' || status === 'RUNNING') {
        // Not as seen (another status, another attempt): a worker moved the audit meanwhile, and it wins.
        await expectRefused(
          before,
          apply({ id: before.id, status: status === 'QUEUED' ? 'RUNNING' : 'QUEUED', attempts: 2 }),
        );
        await expectRefused(before, apply({ id: before.id, status, attempts: 1 }));
        expect(await apply({ id: before.id, status, attempts: 2 })).toBe(true);
        expect(await row(before.id)).toMatchObject(
          transition === 'requeueSeen'
            ? { status: 'QUEUED', phase: null, error: 'Queued again: its job was lost.' }
            : { status: 'FAILED', phase: null, error: 'Its job failed.' },
        );
      } else {
        // Even a sweeper that saw the audit active (and is wrong by now) cannot move it out of a final status.
        for (const seen of ['QUEUED', 'RUNNING'] as const)
          await expectRefused(before, apply({ id: before.id, status: seen, attempts: 2 }));
      }
    }
  });

  it('requeueSeen without a note leaves the error as it was (a RUNNING audit whose job waits)', async () => {
    const before = await auditIn('RUNNING');
    await t.runtime.pool.query(`UPDATE audit SET error = 'Attempt 1 failed; retrying.' WHERE id = $1`, [before.id]);
    expect(await lifecycle.requeueSeen(db(), { id: before.id, status: 'RUNNING', attempts: 1 })).toBe(true);
    expect(await row(before.id)).toMatchObject({ status: 'QUEUED', phase: null, error: 'Attempt 1 failed; retrying.' });
  });
});

describe('audit lifecycle: races (only one transition wins)', () => {
  /**
   * Holds the audit's row lock while the contenders start, so that they wait on it (`waiting` of them) and then
   * race; each one's guard is re-read after the winner commits (PostgreSQL re-checks WHERE on the updated row).
   */
  async function race<T>(auditId: string, contenders: (() => Promise<T>)[], waiting = contenders.length): Promise<T[]> {
    const blocker = await t.runtime.pool.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('SELECT 1 FROM audit WHERE id = $1 FOR UPDATE', [auditId]);
      const results = Promise.all(contenders.map((c) => c()));
      // Every contender is waiting on the lock before it is released.
      for (let i = 0; i < 100; i++) {
        const { rows } = await t.runtime.pool.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = ` +
            `current_database() AND query LIKE 'UPDATE audit SET%'`,
        );
        if (rows[0].n >= waiting) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      await blocker.query('COMMIT');
      return await results;
    } finally {
      blocker.release();
    }
  }

  it('two workers completing the same attempt: one completes it, the other is told it did not', async () => {
    const audit = await auditIn('RUNNING');
    const run = { auditId: audit.id, attempt: 1 };
    const results = await race(audit.id, [() => completeIn(run), () => completeIn(run)]);
    expect(results.sort()).toEqual([false, true]);
    expect((await row(audit.id)).status).toBe('COMPLETED');
  });

  it('a worker completing, one failing, the queue giving up and a user cancelling at once: one wins', async () => {
    for (let round = 0; round < 5; round++) {
      const audit = await auditIn('RUNNING');
      const run = { auditId: audit.id, attempt: 1 };
      const outcomes: [AuditStatus, () => Promise<boolean>][] = [
        ['COMPLETED', () => completeIn(run)],
        [
          'FAILED',
          () => lifecycle.failAttempt(db(), run, 'The site answered 500.', { pagesCrawled: 1, pagesFailed: 1 }),
        ],
        ['FAILED', () => lifecycle.fail(db(), audit.id, 'Gave up.')],
        [
          'CANCELLED',
          async () =>
            (await lifecycle.cancel(db(), { projectId: audit.project_id, auditId: audit.id }, 'Cancelled by a user.'))
              .length > 0,
        ],
      ];
      // A different order each round: which one takes the lock first is up to PostgreSQL.
      const order = outcomes.map((o, i) => outcomes[(i + round) % outcomes.length]);
      const results = await race(
        audit.id,
        order.map(([, transition]) => transition),
      );
      expect(results.filter(Boolean), `round ${round}`).toHaveLength(1);
      const winner = order[results.indexOf(true)][0];
      expect((await row(audit.id)).status).toBe(winner);
    }
  });

  it("the queue's retry against the run finishing: the run's attempt ends either way, exactly once", async () => {
    for (let round = 0; round < 4; round++) {
      const audit = await auditIn('RUNNING');
      const run = { auditId: audit.id, attempt: 1 };
      // Back in the queue first, the run can no longer finish it (it is not RUNNING); finished first, it is final.
      const outcomes: [AuditStatus, () => Promise<boolean>][] = [
        ['QUEUED', () => lifecycle.requeue(db(), audit.id, 'Attempt 1 failed; retrying.')],
        [
          round % 2 ? 'FAILED' : 'COMPLETED',
          () =>
            round % 2
              ? lifecycle.failAttempt(db(), run, 'It broke.', { pagesCrawled: 0, pagesFailed: 0 })
              : completeIn(run),
        ],
      ];
      const order = round < 2 ? outcomes : [...outcomes].reverse();
      const results = await race(
        audit.id,
        order.map(([, transition]) => transition),
      );
      expect(results.filter(Boolean), `round ${round}`).toHaveLength(1);
      expect((await row(audit.id)).status).toBe(order[results.indexOf(true)][0]);
    }
  });

  it('a worker whose lock expired and the one that claimed the audit after it: only the later finishes', async () => {
    const audit = await auditIn('QUEUED', 0);
    const first = await lifecycle.claim(db(), audit.id);
    const second = await lifecycle.claim(db(), audit.id);
    expect([first?.attempt, second?.attempt]).toEqual([1, 2]);
    // The superseded attempt's guard fails without waiting for the row (attempts no longer match): one waits.
    const results = await race(audit.id, [() => completeIn(first!), () => completeIn(second!)], 1);
    expect(results).toEqual([false, true]);
    expect(await row(audit.id)).toMatchObject({ status: 'COMPLETED', attempts: 2 });
  });

  it('two requests creating an audit for the same project at once: one is created, the other gets null', async () => {
    const project = await aProject({ org });
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        lifecycle.create(db(), { id: newId(), projectId: project.id, maxPages: 10, createdAt: new Date() }),
      ),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    const { rows } = await t.runtime.pool.query(`SELECT count(*)::int AS n FROM audit WHERE project_id = $1`, [
      project.id,
    ]);
    expect(rows[0].n).toBe(1);
  });
});
