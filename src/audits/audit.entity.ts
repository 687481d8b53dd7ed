import { defineEntity, type InferEntity } from '@mikro-orm/core';

export const AUDIT_STATUSES = ['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;
export type AuditStatus = (typeof AUDIT_STATUSES)[number];
export const ACTIVE_STATUSES: AuditStatus[] = ['QUEUED', 'RUNNING'];
/** What a RUNNING audit is doing; null in every other status (a database constraint). */
export const AUDIT_PHASES = ['CRAWLING', 'ANALYZING', 'MEASURING', 'SAVING'] as const;
export type AuditPhase = (typeof AUDIT_PHASES)[number];

/** An external link the crawl could not check (host not resolved, no answer in time): not a broken link. */
export interface UncheckedLink {
  url: string;
  reason: string;
}

export const AuditEntity = defineEntity({
  name: 'Audit',
  tableName: 'audit',
  properties: (p) => ({
    id: p.uuid().primary(),
    projectId: p.uuid(),
    status: p.string().$type<AuditStatus>(),
    phase: p.string().$type<AuditPhase>().nullable(),
    jobId: p.string().unique(),
    overallScore: p.integer().nullable(),
    metaScore: p.integer().nullable(),
    contentScore: p.integer().nullable(),
    linksScore: p.integer().nullable(),
    technicalScore: p.integer().nullable(),
    performanceScore: p.integer().nullable(),
    pagesCrawled: p.integer(),
    pagesQueued: p.integer(),
    pagesFailed: p.integer().default(0),
    pagesDiscovered: p.integer().nullable(),
    crawlTruncated: p.boolean().default(false),
    uncheckedLinks: p.json<UncheckedLink[]>().nullable(),
    maxPages: p.integer(),
    attempts: p.integer(),
    error: p.text().nullable(),
    createdAt: p.datetime(),
    startedAt: p.datetime().nullable(),
    completedAt: p.datetime().nullable(),
  }),
});
export type Audit = InferEntity<typeof AuditEntity>;

export const AuditIssueEntity = defineEntity({
  name: 'AuditIssue',
  tableName: 'audit_issue',
  properties: (p) => ({
    id: p.uuid().primary(),
    auditId: p.uuid(),
    code: p.string(),
    title: p.string(),
    severity: p.string().$type<'CRITICAL' | 'WARNING' | 'NOTICE'>(),
    category: p.string().$type<'META' | 'CONTENT' | 'LINKS' | 'TECHNICAL' | 'PERFORMANCE'>(),
    description: p.text(),
    affectedPages: p.integer(),
    applicablePages: p.integer(),
  }),
});
export type AuditIssue = InferEntity<typeof AuditIssueEntity>;
