import type pg from 'pg';
import { newId } from '../../src/platform/ids.js';
import { CHECK_CATALOG, SEVERITIES, type Category, type Severity } from '../../src/seo/checks/check-catalog.js';
import { issuePriority } from '../../src/seo/scoring/index.js';
import { SESSION_COOKIE, createProject, fetchDoor, rowsOf, setPlan, signUp } from '../support/actors.js';

/**
 * What the web bench shows: one user (signed up over HTTP), their organization on ENTERPRISE, 50 projects with
 * two completed, scored audits each, and on the first project an audit with 2,000 issues and a few occurrences
 * per issue. Rows go in by SQL, as the integration tests insert audits; the user and projects go through the API.
 */

export const BENCH_WEB_EMAIL = 'bench-web@bench.example.test';
const PASSWORD = 'bench-correct-horse-battery';
export { SESSION_COOKIE };

export interface SeededProject {
  id: string;
  name: string;
  url: string;
  score: number;
  change: number;
  completedAt: Date;
}

export interface SeededIssue {
  code: string;
  title: string;
  severity: Severity;
  category: Category;
  description: string;
  affectedPages: number;
}

export interface WebSeed {
  userId: string;
  organizationId: string;
  /** The session cookie's value as better-auth set it (signed, URL-encoded). */
  sessionToken: string;
  projects: SeededProject[];
  issuesProjectId: string;
  issuesAuditId: string;
  issues: SeededIssue[];
  occurrences: number;
}

const ADJECTIVES = ['Alpine', 'Blue', 'Cedar', 'Delta', 'Ember', 'Fjord', 'Granite', 'Harbor', 'Indigo', 'Juniper'];
const NOUNS = ['Outdoor Gear', 'Bakery', 'Law Firm', 'Dental Care', 'Bike Shop'];

/** The previous run's user and organization (projects, audits, issues and occurrences cascade), if any. */
export async function removeBenchUser(pool: pg.Pool, email = BENCH_WEB_EMAIL): Promise<number> {
  const orgs = await pool.query(
    `DELETE FROM "organization" WHERE id IN (SELECT m."organizationId" FROM "member" m JOIN "user" u ON ` +
      `u.id = m."userId" WHERE u.email = $1)`,
    [email],
  );
  await pool.query('DELETE FROM "user" WHERE email = $1', [email]);
  return orgs.rowCount ?? 0;
}

/**
 * 2,000 issues cycled from the check catalog (~90 codes), each code made unique with a numeric suffix, since
 * (audit_id, code) is unique. A stress case: a real audit has at most one issue per catalog code.
 * Affected page counts are distinct, so the order the page sorts them in has exactly one last row.
 */
export function stressIssues(count: number): SeededIssue[] {
  return Array.from({ length: count }, (_, i) => {
    const check = CHECK_CATALOG[i % CHECK_CATALOG.length];
    const round = Math.floor(i / CHECK_CATALOG.length);
    return {
      code: `${check.code}_${String(round + 1).padStart(3, '0')}`,
      title: check.title,
      severity: check.severity,
      category: check.category,
      description: check.description,
      affectedPages: 1 + ((i * 7919) % count),
    };
  });
}

/**
 * The issue the audit issues page lists last: its order is priority (the points an issue costs, here a share of the
 * `applicable` pages: the seeded audit has no score breakdown), then severity, most affected pages, code.
 */
export function lastListedIssue(issues: readonly SeededIssue[], applicable = issues.length): SeededIssue {
  const priority = (i: SeededIssue) => issuePriority({ ...i, applicablePages: applicable }, null);
  const sorted = [...issues].sort(
    (a, b) =>
      priority(b) - priority(a) ||
      SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) ||
      b.affectedPages - a.affectedPages ||
      a.code.localeCompare(b.code),
  );
  return sorted[sorted.length - 1];
}

/** How many issues the page's search shows for a term (title, code or description, case-insensitive). */
export function issuesMatching(issues: readonly SeededIssue[], term: string): number {
  const needle = term.trim().toLowerCase();
  return issues.filter((i) => [i.title, i.code, i.description].some((s) => s.toLowerCase().includes(needle))).length;
}

export async function seedWebBench(
  pool: pg.Pool,
  baseUrl: string,
  opts: { projects: number; issues: number; occurrencesPerIssue: number },
): Promise<WebSeed> {
  await removeBenchUser(pool);
  const door = fetchDoor(baseUrl, { rows: rowsOf(pool) });
  const { userId, sessionToken, organizationId, cookie } = await signUp(door, {
    email: BENCH_WEB_EMAIL,
    password: PASSWORD,
    name: 'Bench Gardener',
  });
  await setPlan(rowsOf(pool), organizationId, 'ENTERPRISE');

  const projects: SeededProject[] = [];
  const now = Date.now();
  for (let i = 0; i < opts.projects; i++) {
    const name = `${ADJECTIVES[i % ADJECTIVES.length]} ${NOUNS[Math.floor(i / ADJECTIVES.length) % NOUNS.length]}`;
    const url = `https://${name.toLowerCase().replace(/\s+/g, '-')}-${i + 1}.example.com`;
    const { id } = await createProject(door, { cookie }, { name, url });
    // Scores spread over the three bands, changes of -10..+10 (0 included).
    const score = 35 + ((i * 37) % 64);
    const change = ((i * 13) % 21) - 10;
    projects.push({ id, name, url, score, change, completedAt: new Date(now - (i + 1) * 3_600_000) });
  }

  // Two completed audits per project: a week ago and the latest, whose difference is the dashboard's change.
  const audits = projects.flatMap((p, i) => [
    {
      id: newId(),
      projectId: p.id,
      score: p.score - p.change,
      completedAt: new Date(p.completedAt.getTime() - 7 * 86_400_000),
      pages: 120 + i,
    },
    {
      id: newId(),
      projectId: p.id,
      score: p.score,
      completedAt: p.completedAt,
      pages: i === 0 ? opts.issues : 120 + i,
    },
  ]);
  await pool.query(
    `INSERT INTO audit (id, project_id, status, job_id, overall_score, meta_score, content_score, ` +
      `links_score, technical_score, performance_score,
       pages_crawled, max_pages, created_at, started_at, completed_at)
     SELECT a.id, a.project_id, 'COMPLETED', a.id::text, a.score, LEAST(100, a.score + 5), ` +
      `GREATEST(0, a.score - 5), LEAST(100, a.score + 2),
       GREATEST(0, a.score - 3), a.score, a.pages, 10000, a.done - interval '4 minutes', a.done - ` +
      `interval '4 minutes', a.done
     FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::int[], $5::timestamptz[]) AS a(id, ` +
      `project_id, score, pages, done)`,
    [
      audits.map((a) => a.id),
      audits.map((a) => a.projectId),
      audits.map((a) => a.score),
      audits.map((a) => a.pages),
      audits.map((a) => a.completedAt),
    ],
  );

  const issuesProjectId = projects[0].id;
  const issuesAuditId = audits[1].id;
  const issues = stressIssues(opts.issues);
  await pool.query(
    `INSERT INTO audit_issue (id, audit_id, code, title, severity, category, description, affected_pages, ` +
      `applicable_pages)
     SELECT i.id, $1, i.code, i.title, i.severity, i.category, i.description, i.affected, $2
     FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::int[]) ` +
      `AS i(id, code, title, severity, category, description, affected)`,
    [
      issuesAuditId,
      opts.issues,
      issues.map(() => newId()),
      issues.map((i) => i.code),
      issues.map((i) => i.title),
      issues.map((i) => i.severity),
      issues.map((i) => i.category),
      issues.map((i) => i.description),
      issues.map((i) => i.affectedPages),
    ],
  );
  const site = new URL(projects[0].url).origin;
  const occurrence = await pool.query(
    `INSERT INTO issue_occurrence (audit_id, code, url, evidence)
     SELECT $1, i.code, $2::text || '/page-' || ((i.n * 31 + k) % $3::int + 1), ` +
      `jsonb_build_object('check', i.code, 'detail', 'example ' || k)
     FROM unnest($4::text[]) WITH ORDINALITY AS i(code, n), generate_series(1, $5::int) AS k`,
    [issuesAuditId, site, opts.issues, issues.map((i) => i.code), opts.occurrencesPerIssue],
  );
  return {
    userId,
    organizationId,
    sessionToken,
    projects,
    issuesProjectId,
    issuesAuditId,
    issues,
    occurrences: occurrence.rowCount ?? 0,
  };
}
