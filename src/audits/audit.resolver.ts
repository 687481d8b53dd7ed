import { Arg, Ctx, FieldResolver, Float, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../platform/context.js';
import { describeSettingChange, findCheck, guidanceFor, type CheckSettingChange } from '../seo/checks/index.js';
import {
  RANKING_POINTS,
  RANKING_POSITION_WEIGHTS,
  RANKING_TAIL_WEIGHT,
  blockerNotices,
  fixesSummary,
  type FixesShown,
} from '../seo/scoring/index.js';
import { ProjectType } from '../projects/graphql.js';
import { withNotTried, type Audit, type AuditIssue } from './audit.entity.js';
import { JOB_STATE_BY_STATUS } from './audit-job.js';
import { auditLoaders } from './audit.loaders.js';
import { rankingPageLoaders } from './ranking-pages.loaders.js';
import { inIssueOrder, issuePriorityOf } from './issue-order.js';
import type { AuditService } from './audit.service.js';
import { SegmentService } from './segment.service.js';
import type { AuditPageService } from './audit-page.service.js';
import { type AuditPageOrder, type SortDirection, type StatusClass } from './audit-page.service.js';
import type { AuditPageKind } from './audit-engine.js';
import { AuditPageViewType } from './audit-page-view.types.js';
import {
  AuditCheckSettingType,
  CheckSettingChangeType,
  type CheckSettingChangeKindEnum,
} from './audit-settings.types.js';
import { toEvidenceViewType, toPageView } from './audit-page-view.resolver.js';
import {
  AuditConnection,
  AuditPageConnection,
  AuditPageFilterInput,
  AuditPageOrderEnum,
  type AuditPageKindEnum,
  SortDirectionEnum,
  AuditType,
  IssueCountsType,
  IssueOccurrenceConnection,
  ScoreBreakdownType,
  BlockerNoticeType,
  IssueType,
  type IssueFixesType,
  type IssueRankingInputs,
  JobType,
  StartAuditPayload,
  type AuditPhaseEnum,
  type AuditStatusEnum,
  type CategoryEnum,
  type SeverityEnum,
} from './audit.types.js';

/** A check setting change as GraphQL shows it (the audit's history and the comparison). */
export const toSettingChangeType = (c: CheckSettingChange): CheckSettingChangeType => ({
  code: c.code,
  title: c.title,
  change: c.change as CheckSettingChangeKindEnum,
  severityBefore: c.severityBefore as SeverityEnum | null,
  severityAfter: c.severityAfter as SeverityEnum | null,
  description: describeSettingChange(c),
});

export const toAuditType = (a: Audit): AuditType => ({
  id: a.id,
  projectId: a.projectId,
  jobId: a.jobId,
  status: a.status as AuditStatusEnum,
  phase: (a.phase ?? null) as AuditPhaseEnum | null,
  overallScore: a.overallScore ?? null,
  metaScore: a.metaScore ?? null,
  contentScore: a.contentScore ?? null,
  linksScore: a.linksScore ?? null,
  technicalScore: a.technicalScore ?? null,
  performanceScore: a.performanceScore ?? null,
  pagesCrawled: a.pagesCrawled,
  pagesQueued: a.pagesQueued,
  externalLinksChecked: a.externalLinksChecked ?? 0,
  externalLinksFound: a.externalLinksFound ?? 0,
  externalLinksFinal: a.externalLinksFinal ?? true,
  pagesFailed: a.pagesFailed ?? 0,
  pagesDiscovered: a.pagesDiscovered ?? null,
  truncated: a.crawlTruncated ?? false,
  uncheckedLinks: a.uncheckedLinks ?? [],
  counts: a.counts ? withNotTried(a.counts) : null,
  maxPages: a.maxPages,
  error: a.error ?? null,
  createdAt: a.createdAt,
  startedAt: a.startedAt ?? null,
  completedAt: a.completedAt ?? null,
});

/** Fixes as GraphQL shows them, with their one-line summary. */
const fixesType = (code: string, fixes: FixesShown): IssueFixesType => ({
  count: fixes.count,
  summary: fixesSummary(code, fixes),
  listed: fixes.listed.map((f) => ({ cause: f.cause, pages: f.pages })),
  places: fixes.places ?? null,
});

/**
 * An issue of an audit of `projectId`; its priority is resolved apart (IssueResolver.priority), from `rankingInputs`
 * when the caller read them for a whole list.
 */
const toIssueType = (i: AuditIssue, projectId: string, rankingInputs?: IssueRankingInputs): IssueType => {
  const guidance = guidanceFor(i.code);
  // Written out, not `{ ...i, projectId, … }`: in V8 each property added to a spread copy costs ~1.5 µs (measured
  // here, Node 20): an audit's 2,000 issues took 7.6 ms that way, 0.2 ms written out.
  return {
    id: i.id,
    auditId: i.auditId,
    projectId,
    rankingInputs,
    code: i.code,
    title: i.title,
    severity: i.severity as SeverityEnum,
    category: i.category as CategoryEnum,
    description: i.description,
    affectedPages: i.affectedPages,
    applicablePages: i.applicablePages,
    fixes: i.fixes ? fixesType(i.code, i.fixes) : null,
    chargedElsewhere: i.chargedElsewhere ?? 0,
    scope: findCheck(i.code)?.scope ?? 'page',
    whyItMatters: guidance?.why ?? null,
    howToFix: guidance?.fix ?? null,
  };
};

/**
 * What an issue's priority and ranking pages are computed from. Both loaders are per request: a list of issues costs
 * one breakdown read and one ranking join. The breakdown's HTML page count is what costs are shares of.
 */
async function issueRankingInputs(
  ctx: RequestContext,
  auditId: string,
  projectId: string,
): Promise<IssueRankingInputs> {
  const [breakdown, ranking] = await Promise.all([
    auditLoaders(ctx).scoreBreakdown.load(auditId),
    rankingPageLoaders(ctx).project.load(projectId),
  ]);
  const costPoints = new Map((breakdown?.costs ?? []).map((c) => [c.code, c.points]));
  return { htmlPages: breakdown?.htmlPages ?? null, costPoints, ranking };
}

/** "top 3: 1, 4-10: 0.6, 11-20: 0.3, beyond: 0.1", from the bands the priority uses. */
const POSITION_WEIGHTS = [
  ...RANKING_POSITION_WEIGHTS.map(
    (band, i) =>
      `${i === 0 ? `top ${band.upTo}` : `${RANKING_POSITION_WEIGHTS[i - 1].upTo + 1}-${band.upTo}`}: ` +
      `${band.weight}`,
  ),
  `beyond: ${RANKING_TAIL_WEIGHT}`,
].join(', ');

export const toJobType = (a: Audit): JobType => ({
  id: a.jobId,
  state: JOB_STATE_BY_STATUS[a.status],
  progress: {
    pagesCrawled: a.pagesCrawled,
    pagesQueued: a.pagesQueued,
    externalLinksChecked: a.externalLinksChecked ?? 0,
    externalLinksFound: a.externalLinksFound ?? 0,
  },
  auditId: a.id,
  error: a.error ?? null,
});

@Resolver(() => AuditType)
export class AuditResolver {
  constructor(
    private readonly service: AuditService,
    private readonly pageService: AuditPageService,
    private readonly segments = new SegmentService(),
  ) {}

  @Query(() => AuditType, {
    description: 'The selected audit, or the latest audit of any status; NOT_FOUND when the project has none.',
  })
  async audit(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('auditId', () => ID, { nullable: true }) auditId: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<AuditType> {
    return toAuditType(await this.service.get(ctx.em, ctx.principal, projectId, auditId));
  }

  @Query(() => AuditConnection, { description: "A project's audits, newest first." })
  async audits(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('first', () => Int, { defaultValue: 20 }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<AuditConnection> {
    const { audits, hasNext, total } = await this.service.list(ctx.em, ctx.principal, projectId, first, after);
    return {
      nodes: audits.map(toAuditType),
      pageInfo: { hasNextPage: hasNext, endCursor: audits.at(-1)?.id ?? null },
      totalCount: total,
    };
  }

  @Query(() => JobType)
  async job(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<JobType> {
    return toJobType(await this.service.job(ctx.em, ctx.principal, id));
  }

  @Mutation(() => StartAuditPayload, {
    description: 'Queues an audit; returns the active one when an audit is already queued or running.',
  })
  async startAudit(
    @Arg('projectId', () => ID) projectId: string,
    @Ctx() ctx: RequestContext,
  ): Promise<StartAuditPayload> {
    const { audit, created } = await this.service.start(ctx.em, ctx.principal, projectId);
    const message = created
      ? 'Audit queued'
      : `An audit is already ${audit.status === 'RUNNING' ? 'running' : 'queued'} for this project`;
    return { message, jobId: audit.jobId, auditId: audit.id, created, audit: toAuditType(audit) };
  }

  @Mutation(() => AuditType, {
    description:
      "Cancels the project's queued or running audit (or the one named by auditId): its crawl stops within a " +
      'second and the pages crawled so far are kept. ' +
      ('Cancelling an audit that already completed or failed is BAD_USER_INPUT; an already cancelled one is ' +
        'returned as it is.'),
  })
  async cancelAudit(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('auditId', () => ID, { nullable: true }) auditId: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<AuditType> {
    return toAuditType(await this.service.cancel(ctx.em, ctx.principal, projectId, auditId));
  }

  @FieldResolver(() => AuditPageConnection, {
    description: 'Crawled pages of this audit, sortable and filterable, with opaque cursors.',
  })
  async pages(
    @Root() audit: AuditType,
    @Arg('first', () => Int, { defaultValue: 50, description: '1-100' }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Arg('orderBy', () => AuditPageOrderEnum, { defaultValue: AuditPageOrderEnum.URL }) orderBy: AuditPageOrderEnum,
    @Arg('direction', () => SortDirectionEnum, { defaultValue: SortDirectionEnum.ASC }) direction: SortDirectionEnum,
    @Arg('filter', () => AuditPageFilterInput, { nullable: true }) filter: AuditPageFilterInput | null,
    @Ctx() ctx: RequestContext,
  ): Promise<AuditPageConnection> {
    const list = await this.pageService.list(ctx.db, ctx.principal, audit.id, {
      first,
      after,
      orderBy: orderBy as AuditPageOrder,
      direction: direction as SortDirection,
      filter: filter && {
        ...filter,
        statusClass: filter.statusClass as StatusClass[] | null | undefined,
        kind: filter.kind as AuditPageKind[] | null | undefined,
      },
    });
    return {
      nodes: list.rows.map((row) => ({ ...row, kind: row.kind as AuditPageKindEnum | null })),
      pageInfo: { hasNextPage: list.hasNext, endCursor: list.endCursor },
      totalCount: list.totalCount,
    };
  }

  @FieldResolver(() => AuditPageViewType, {
    description:
      'One crawled URL of this audit as the page view shows it (status, redirects, indexability, content facts, ' +
      'vitals, issues, inlinks and outlinks); NOT_FOUND when the URL was not crawled in this audit.',
  })
  async page(
    @Root() audit: AuditType,
    @Arg('url', () => String, { description: 'The URL as crawled (AuditPage.url).' }) url: string,
    @Ctx() ctx: RequestContext,
  ): Promise<AuditPageViewType> {
    return toPageView(audit, await this.pageService.page(ctx.db, ctx.principal, audit.id, url));
  }

  @FieldResolver(() => [IssueType], {
    description:
      'Most severe first (CRITICAL, WARNING, NOTICE), and within a severity the larger priority first (then the ' +
      'more affected pages, then the code): what tracked rankings add to a priority orders the issues of one ' +
      'severity, never lifts one above a more severe one. With `segment` (a segment id of the project): the checks ' +
      "found on the segment's URLs only, each with affectedPages and segmentOccurrences counted there, and ordered " +
      'by them (NOT_FOUND for a segment of another project).',
  })
  async issues(
    @Root() audit: AuditType,
    @Ctx() ctx: RequestContext,
    @Arg('segment', () => ID, { nullable: true }) segment: string | null,
  ): Promise<IssueType[]> {
    // The order reads every issue's priority, so what priority and rankingPages need is read for the list: once, not
    // awaited per issue.
    const [issues, rankingInputs, inSegment] = await Promise.all([
      this.service.issues(ctx.em, audit.id),
      issueRankingInputs(ctx, audit.id, audit.projectId),
      segment ? this.segments.issuesIn(ctx.db, ctx.principal, audit.id, segment, ctx.signal) : undefined,
    ]);
    const types = !inSegment
      ? issues.map((i) => toIssueType(i, audit.projectId, rankingInputs))
      : issues.flatMap((i) => {
          const counts = inSegment.get(i.code);
          if (!counts) return [];
          const type = toIssueType({ ...i, affectedPages: counts.affected }, audit.projectId, rankingInputs);
          type.segmentOccurrences = counts.occurrences;
          return [type];
        });
    return inIssueOrder(types, rankingInputs);
  }

  @FieldResolver(() => IssueType, {
    description:
      'One issue of this audit, e.g. to page through its occurrences; NOT_FOUND when the audit has no such issue.',
  })
  async issue(
    @Root() audit: AuditType,
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: RequestContext,
  ): Promise<IssueType> {
    return toIssueType(await this.service.issue(ctx.em, audit.id, id), audit.projectId);
  }

  @FieldResolver(() => ScoreBreakdownType, {
    nullable: true,
    description:
      'Why the audit scored what it did, the costs that take most off the overall score first; null until it ' +
      'completes, and for audits scored before breakdowns were kept (those keep their scores).',
  })
  async scoreBreakdown(@Root() audit: AuditType, @Ctx() ctx: RequestContext): Promise<ScoreBreakdownType | null> {
    const breakdown = await auditLoaders(ctx).scoreBreakdown.load(audit.id);
    if (!breakdown) return null;
    return {
      ...breakdown,
      costs: breakdown.costs.map((c) => ({
        ...c,
        title: findCheck(c.code)?.title ?? c.code,
        category: c.category as CategoryEnum,
        severity: c.severity as SeverityEnum,
        fixes: c.fixes ? fixesType(c.code, c.fixes) : null,
      })),
      blockerNotices: blockerNotices(breakdown),
      pagesShownWorse: breakdown.pagesShownWorse ?? 0,
      indexability: breakdown.indexability ?? null,
      wontFixExcluded: breakdown.wontFix?.excludedOccurrences ?? 0,
    };
  }

  @FieldResolver(() => [AuditCheckSettingType], {
    nullable: true,
    description:
      'The project check settings the audit was scored with (checks switched off, other severities; empty: the ' +
      "catalog's); null until it completes.",
  })
  async checkSettings(@Root() audit: AuditType, @Ctx() ctx: RequestContext): Promise<AuditCheckSettingType[] | null> {
    if (audit.status !== 'COMPLETED') return null;
    const breakdown = await auditLoaders(ctx).scoreBreakdown.load(audit.id);
    return (breakdown?.overrides ?? []).map((o) => ({
      code: o.code,
      title: findCheck(o.code)?.title ?? o.code,
      enabled: o.enabled,
      severity: o.severity as SeverityEnum | null,
    }));
  }

  @FieldResolver(() => [CheckSettingChangeType], {
    nullable: true,
    description:
      "How the check settings it was scored with differ from the project's completed audit before it (empty: the " +
      'same; its score compares). Null until it completes, and for the first completed audit. A score history marks ' +
      'the audits where this is not empty.',
  })
  async settingChanges(@Root() audit: AuditType, @Ctx() ctx: RequestContext): Promise<CheckSettingChangeType[] | null> {
    if (audit.status !== 'COMPLETED') return null;
    const changes = await auditLoaders(ctx).settingChanges.load(audit.id);
    return changes && changes.map(toSettingChangeType);
  }

  @FieldResolver(() => [BlockerNoticeType], {
    description:
      'The site-wide blockers that capped the overall score at 50 (robots.txt blocks all or cannot be read, 0 ' +
      'indexable pages, the start URL answers 4xx/5xx), each with the sentence its banner shows; empty when none, ' +
      'before the audit completes, and for audits scored before breakdowns were kept.',
  })
  async blockers(@Root() audit: AuditType, @Ctx() ctx: RequestContext): Promise<BlockerNoticeType[]> {
    const breakdown = await auditLoaders(ctx).scoreBreakdown.load(audit.id);
    return breakdown ? blockerNotices(breakdown) : [];
  }

  @FieldResolver(() => IssueCountsType)
  async issueCounts(@Root() audit: AuditType, @Ctx() ctx: RequestContext): Promise<IssueCountsType> {
    return auditLoaders(ctx).issueCounts.load(audit.id);
  }
}

@Resolver(() => IssueType)
export class IssueResolver {
  constructor(
    private readonly service: AuditService,
    private readonly pageService: AuditPageService,
  ) {}

  @FieldResolver(() => Float, {
    description:
      'How much fixing it matters; within a severity, larger first is the order to fix in (Audit.issues). The ' +
      'points it costs its category score (severity weight × share of the crawled HTML pages it affects; a fixed ' +
      'amount for a site-level issue), plus, ' +
      `in the project's latest completed audit, ${RANKING_POINTS} × severity weight (CRITICAL 1, WARNING 0.3, ` +
      "NOTICE 0.03) × Σ over its affected pages that rank for tracked keywords of Σ their keywords' position " +
      `weights (${POSITION_WEIGHTS}): an issue on a page that brings traffic is fixed first (docs/scores.md).`,
  })
  priority(@Root() issue: IssueType, @Ctx() ctx: RequestContext): number | Promise<number> {
    if (issue.rankingInputs) return issuePriorityOf(issue, issue.rankingInputs);
    return issueRankingInputs(ctx, issue.auditId, issue.projectId).then((inputs) => issuePriorityOf(issue, inputs));
  }

  @FieldResolver(() => Int, {
    description:
      "Affected pages that rank for at least one tracked keyword (latest check), in the project's latest completed " +
      'audit; 0 in any other audit.',
  })
  rankingPages(@Root() issue: IssueType, @Ctx() ctx: RequestContext): number | Promise<number> {
    if (issue.rankingInputs) return issue.rankingInputs.ranking.rankingPagesOf(issue.auditId, issue.code);
    return rankingPageLoaders(ctx)
      .project.load(issue.projectId)
      .then((ranking) => ranking.rankingPagesOf(issue.auditId, issue.code));
  }

  @FieldResolver(() => IssueOccurrenceConnection)
  async occurrences(
    @Root() issue: IssueType,
    @Arg('first', () => Int, { defaultValue: 50 }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<IssueOccurrenceConnection> {
    const { rows, hasNext } = await this.service.occurrences(ctx.em, issue.auditId, issue.code, first, after);
    const items = rows.map((row) => ({ code: issue.code, evidence: row.evidence, url: row.url }));
    const details = await this.pageService.evidenceViews(ctx.db, issue.auditId, items);
    return {
      nodes: rows.map((row, i) => ({
        ...row,
        auditId: issue.auditId,
        projectId: issue.projectId,
        code: issue.code,
        details: toEvidenceViewType(details[i]),
      })),
      pageInfo: { hasNextPage: hasNext, endCursor: rows.at(-1)?.id ?? null },
    };
  }
}

/** Audit facts on projects, batched per request. */
@Resolver(() => ProjectType)
export class ProjectAuditFieldsResolver {
  @FieldResolver(() => Int, { nullable: true, description: 'Overall score of the latest completed audit.' })
  lastAuditScore(@Root() project: ProjectType, @Ctx() ctx: RequestContext): Promise<number | null> {
    return auditLoaders(ctx).lastCompleted.load(project.id);
  }

  @FieldResolver(() => Int, {
    nullable: true,
    description:
      'Change of the overall score between the latest completed audit and the completed audit before it; ' +
      'null with fewer than two, and when they were scored with different check settings (scoreChangeWithheld).',
  })
  async scoreChange(@Root() project: ProjectType, @Ctx() ctx: RequestContext): Promise<number | null> {
    return (await auditLoaders(ctx).scoreChange.load(project.id)).change;
  }

  @FieldResolver(() => Boolean, {
    description:
      'True when the latest completed audit was scored with other check settings than the completed audit before ' +
      'it: scoreChange is then null, since a settings change alone is not progress or decline.',
  })
  async scoreChangeWithheld(@Root() project: ProjectType, @Ctx() ctx: RequestContext): Promise<boolean> {
    return (await auditLoaders(ctx).scoreChange.load(project.id)).withheld;
  }

  @FieldResolver(() => AuditType, { nullable: true, description: 'The latest audit of any status.' })
  async latestAudit(@Root() project: ProjectType, @Ctx() ctx: RequestContext): Promise<AuditType | null> {
    const audit = await auditLoaders(ctx).latest.load(project.id);
    return audit ? toAuditType(audit) : null;
  }
}
