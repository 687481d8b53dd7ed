import { newId } from '../src/platform/ids.js';
import type { Plan } from '../src/platform/config.js';
import { getCheck, type Category, type Severity } from '../src/seo/checks/index.js';
import { createApiKey, createProject, signUp, uniq, type TestApp, type TestUser } from './support/app.js';
import type { AuditStatus } from '../src/audits/index.js';
import type { StoredScores } from '../src/seo/scoring/index.js';

export type { AuditStatus };

/**
 * Test data over the real database, in the words of the domain: `anOrg({ plan })`, `aProject({ org })`,
 * `anAudit({ project, pages, issues })`. Organizations, users, keys and projects go through the product's own doors
 * (better-auth's sign-up, GraphQL), so they are what a person would get; audits and their results are written
 * as the worker writes them (there is no other door), in one place instead of an INSERT per test file.
 */

/** An organization with its owner (a signed-up user with a session cookie). */
export interface Org {
  t: TestApp;
  id: string;
  plan: Plan;
  owner: TestUser;
}

/** A new user's personal organization, on `plan` (default: the configured DEFAULT_PLAN, as at sign-up). */
export async function anOrg(t: TestApp, opts: { plan?: Plan; email?: string } = {}): Promise<Org> {
  const owner = await signUp(t, opts);
  return { t, id: owner.organizationId, plan: opts.plan ?? t.config.DEFAULT_PLAN, owner };
}

/** An API key of the organization, made by its owner; the full key (shown once). */
export function anApiKey(org: Org, name = 'test key'): Promise<string> {
  return createApiKey(org.t, org.owner, name);
}

export interface Project {
  org: Org;
  id: string;
  url: string;
  domain: string;
}

/** A project of the organization, created through the dashboard's GraphQL (allowed on every plan within quota). */
export async function aProject(opts: { org: Org; url?: string }): Promise<Project> {
  const created = await createProject(opts.org.t, opts.org.owner, opts.url ?? `https://site-${uniq()}.example.com`);
  return { org: opts.org, ...created };
}

/** The scores a completed audit gets unless told otherwise. */
export const SOME_SCORES: StoredScores = {
  overall: 80,
  meta: 70,
  content: 60,
  links: 90,
  technical: 85,
  performance: 95,
};

/** A crawled page (audit_page); omitted columns get the values of a plain 200 page. */
export interface PageRow {
  url: string;
  finalUrl?: string | null;
  statusCode?: number | null;
  depth?: number;
  title?: string | null;
  metaDescription?: string | null;
  indexable?: boolean;
  wordCount?: number;
  responseTimeMs?: number | null;
  bytes?: number;
  inlinks?: number;
  outlinks?: number;
  error?: string | null;
  /** HTML, REDIRECT, ERROR, FILE or FAILED; null (the default) as on rows written before kinds were stored. */
  kind?: string | null;
  /** audit_page.details (AuditPageDetails: h1, canonical, resources…); null by default. */
  details?: Record<string, unknown> | null;
}

/** An issue of the audit (audit_issue) and its occurrences; title, severity and category default to the catalog's. */
export interface IssueRow {
  code: string;
  title?: string;
  severity?: Severity;
  category?: Category;
  description?: string;
  affectedPages?: number;
  applicablePages?: number;
  /** Page URLs, or URLs with evidence (issue_occurrence rows, in this order). */
  occurrences?: (string | { url: string; evidence: unknown })[];
}

export interface AuditSpec {
  project: Project | { org: Org; id: string };
  /** Default COMPLETED. */
  status?: AuditStatus;
  /** Default SOME_SCORES when COMPLETED, none otherwise; missing categories are null. */
  scores?: Partial<StoredScores> | null;
  /** Pages crawled: a count, or the pages themselves (rows of audit_page, inserted in this order). */
  pages?: number | PageRow[];
  maxPages?: number;
  issues?: IssueRow[];
  /** Default now; `completedAt` defaults to `createdAt` for a finished audit and is null for an active one. */
  createdAt?: Date;
  completedAt?: Date | null;
}

export interface Audit {
  id: string;
  jobId: string;
  project: AuditSpec['project'];
  /** The ids of the pages (audit_page.id, as text) by URL. */
  pageIds: Map<string, string>;
  /** The ids of the issues (audit_issue.id) by code. */
  issueIds: Map<string, string>;
}

const FINISHED: AuditStatus[] = ['COMPLETED', 'FAILED', 'CANCELLED'];

/** An audit as the worker leaves it: its row, its pages, its issues and their occurrences. */
export async function anAudit(spec: AuditSpec): Promise<Audit> {
  const { t } = spec.project.org;
  const q = (sql: string, params: unknown[]) => t.runtime.pool.query(sql, params);
  const status = spec.status ?? 'COMPLETED';
  const defaultScores = status === 'COMPLETED' ? SOME_SCORES : {};
  const scores: Partial<StoredScores> = spec.scores === undefined ? defaultScores : (spec.scores ?? {});
  const pages = typeof spec.pages === 'number' ? [] : (spec.pages ?? []);
  const pagesCrawled = typeof spec.pages === 'number' ? spec.pages : pages.length;
  const createdAt = spec.createdAt ?? new Date();
  const completedAt = spec.completedAt !== undefined ? spec.completedAt : FINISHED.includes(status) ? createdAt : null;
  const id = newId();
  await q(
    `INSERT INTO audit (id, project_id, status, job_id, overall_score, meta_score, content_score, links_score,
       technical_score, performance_score, pages_crawled, max_pages, created_at, completed_at)
     VALUES ($1::uuid, $2, $3, $1::text, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      id,
      spec.project.id,
      status,
      scores.overall ?? null,
      scores.meta ?? null,
      scores.content ?? null,
      scores.links ?? null,
      scores.technical ?? null,
      scores.performance ?? null,
      pagesCrawled,
      spec.maxPages ?? 100,
      createdAt,
      completedAt,
    ],
  );
  const pageIds = new Map<string, string>();
  if (pages.length) {
    const rows = pages.map((p) => {
      const statusCode = p.statusCode === undefined ? 200 : p.statusCode;
      return {
        url: p.url,
        final_url: p.finalUrl === undefined ? p.url : p.finalUrl,
        status_code: statusCode,
        depth: p.depth ?? 0,
        title: p.title ?? null,
        meta_description: p.metaDescription ?? null,
        indexable: p.indexable ?? statusCode === 200,
        word_count: p.wordCount ?? 0,
        response_time_ms: p.responseTimeMs ?? null,
        bytes: p.bytes ?? 0,
        inlinks: p.inlinks ?? 0,
        outlinks: p.outlinks ?? 0,
        error: p.error ?? null,
        kind: p.kind ?? null,
        details: p.details ?? null,
      };
    });
    const inserted = await q(
      `INSERT INTO audit_page (audit_id, url, final_url, status_code, depth, title, meta_description, indexable,
         word_count, response_time_ms, bytes, inlinks, outlinks, error, kind, details)
       SELECT $1, url, final_url, status_code, depth, title, meta_description, indexable, word_count, response_time_ms,
         bytes, inlinks, outlinks, error, kind, details
       FROM ROWS FROM (jsonb_to_recordset($2::jsonb) AS (url text, final_url text, status_code int, depth int,
         title text, meta_description text, indexable boolean, word_count int, response_time_ms int, bytes int,
         inlinks int, outlinks int, error text, kind text, details jsonb))
         WITH ORDINALITY AS r(url, final_url, status_code, depth, title, meta_description, indexable, word_count,
           response_time_ms, bytes, inlinks, outlinks, error, kind, details, n)
       ORDER BY n RETURNING id::text, url`,
      [id, JSON.stringify(rows)],
    );
    for (const r of inserted.rows as { id: string; url: string }[]) pageIds.set(r.url, r.id);
  }
  const issueIds = new Map<string, string>();
  for (const issue of spec.issues ?? []) {
    const check = getCheck(issue.code);
    const occurrences = (issue.occurrences ?? []).map((o) => (typeof o === 'string' ? { url: o, evidence: null } : o));
    const issueId = newId();
    await q(
      `INSERT INTO audit_issue (id, audit_id, code, title, severity, category, description, affected_pages,
         applicable_pages) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        issueId,
        id,
        issue.code,
        issue.title ?? check.title,
        issue.severity ?? check.severity,
        issue.category ?? check.category,
        issue.description ?? check.description,
        issue.affectedPages ?? occurrences.length,
        issue.applicablePages ?? Math.max(pagesCrawled, 1),
      ],
    );
    issueIds.set(issue.code, issueId);
    if (occurrences.length) {
      await q(
        `INSERT INTO issue_occurrence (audit_id, code, url, evidence)
         SELECT $1, $2, r.url, r.evidence
         FROM ROWS FROM (jsonb_to_recordset($3::jsonb) AS (url text, evidence jsonb))
           WITH ORDINALITY AS r(url, evidence, n) ORDER BY n`,
        [id, issue.code, JSON.stringify(occurrences)],
      );
    }
  }
  return { id, jobId: id, project: spec.project, pageIds, issueIds };
}
