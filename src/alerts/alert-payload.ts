import type { AlertProject } from './alert-facts.repository.js';
import { describeRule, type AlertDraft, type AlertRule } from './alert-rules.js';

/**
 * The JSON document of a raised alert: the webhook body (signed as sent) and what the alert e-mail is written from.
 * Its shape is documented in docs/alerts.md; fields are added, never renamed.
 */
export interface AlertPayload {
  [key: string]: unknown;
  id: string;
  /** `alert.score_drop`, `alert.new_issues`, … or `test` for a test event. */
  type: string;
  createdAt: string;
  project: { id: string; name: string; url: string };
  rule: {
    id: string;
    kind: string;
    description: string;
    /** The segment the rule watches; null for the whole site (absent on test events). */
    segment?: { id: string; name: string } | null;
  } | null;
  alert: { title: string; lines: string[]; url: string; details: unknown };
}

/** Where in the web app an alert is looked into: the audit for audit alerts, the keywords for rank alerts. */
export function alertLink(baseUrl: string, draft: Pick<AlertDraft, 'projectId' | 'details'>): string {
  const project = `${baseUrl}/projects/${draft.projectId}`;
  return 'auditId' in draft.details ? `${project}/audits/${draft.details.auditId}` : `${project}/keywords`;
}

export function alertPayload(
  event: { id: string; createdAt: Date },
  project: AlertProject,
  rule: AlertRule,
  draft: AlertDraft,
  baseUrl: string,
): AlertPayload {
  return {
    id: event.id,
    type: `alert.${draft.kind.toLowerCase()}`,
    createdAt: event.createdAt.toISOString(),
    project: { id: project.id, name: project.name, url: project.url },
    rule: {
      id: rule.id,
      kind: rule.kind,
      description: describeRule(rule),
      segment: rule.segmentId ? { id: rule.segmentId, name: rule.segmentName ?? '' } : null,
    },
    alert: { title: draft.title, lines: draft.lines, url: alertLink(baseUrl, draft), details: draft.details },
  };
}

/** A test event ("Send test event"): the same envelope, so a receiver can be tried against the real shape. */
export function testPayload(event: { id: string; createdAt: Date }, project: AlertProject, baseUrl: string) {
  return {
    id: event.id,
    type: 'test',
    createdAt: event.createdAt.toISOString(),
    project: { id: project.id, name: project.name, url: project.url },
    rule: null,
    alert: {
      title: 'Test event',
      lines: ['This is a test event sent from the Alerts page; no rule raised it.'],
      url: `${baseUrl}/projects/${project.id}/alerts`,
      details: { kind: 'TEST' },
    },
  } satisfies AlertPayload;
}
