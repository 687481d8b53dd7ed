import { Arg, Ctx, FieldResolver, ID, Mutation, Resolver, Root } from 'type-graphql';
import { MAX_SEGMENT_CONDITIONS, MAX_SEGMENTS_PER_PROJECT } from './segment-rule.js';
import type { RequestContext } from '../platform/context.js';
import { ProjectType } from '../projects/graphql.js';
import { AuditType } from './audit.types.js';
import { SegmentService, type SegmentResult, type SegmentView } from './segment.service.js';
import { AuditSegmentType, SegmentInput, SegmentType, type SegmentKindEnum } from './segment.types.js';

export const toSegmentType = (v: SegmentView): SegmentType => ({
  id: v.id,
  name: v.name,
  kind: v.kind as SegmentKindEnum,
  pattern: v.pattern,
  filter: v.filter,
  createdAt: v.createdAt,
  updatedAt: v.updatedAt,
});

export const toAuditSegmentType = (r: SegmentResult): AuditSegmentType => ({
  segment: toSegmentType(r.segment),
  urls: r.urls,
  htmlPages: r.htmlPages,
  scores: r.scores,
  health: r.health,
  issueCounts: r.issueCounts,
});

/** A project's segments: listing, creating, changing and deleting them (write access). */
@Resolver(() => ProjectType)
export class SegmentResolver {
  constructor(private readonly service = new SegmentService()) {}

  @FieldResolver(() => [SegmentType], { description: "The project's segments, by name." })
  async segments(@Root() project: ProjectType, @Ctx() ctx: RequestContext): Promise<SegmentType[]> {
    return (await this.service.list(ctx.db, ctx.principal, project.id)).map(toSegmentType);
  }

  @Mutation(() => SegmentType, {
    description:
      `Creates a segment (at most ${MAX_SEGMENTS_PER_PROJECT} per project; a FILTER rule at most ` +
      `${MAX_SEGMENT_CONDITIONS} conditions over all its groups). BAD_USER_INPUT for a name in use, a rule that ` +
      'would not run (a regular expression PostgreSQL or JavaScript refuses, a path without a leading /, a filter ' +
      'the URL table refuses), a rule with more conditions or a full project.',
  })
  async createSegment(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('input', () => SegmentInput) input: SegmentInput,
    @Ctx() ctx: RequestContext,
  ): Promise<SegmentType> {
    return toSegmentType(await this.service.create(ctx.db, ctx.principal, projectId, input));
  }

  @Mutation(() => SegmentType, { description: "Changes a segment's name and rule (the checks of createSegment)." })
  async updateSegment(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => SegmentInput) input: SegmentInput,
    @Ctx() ctx: RequestContext,
  ): Promise<SegmentType> {
    return toSegmentType(await this.service.update(ctx.db, ctx.principal, projectId, id, input));
  }

  @Mutation(() => SegmentType, {
    description: 'Deletes a segment; returns it as it was. BAD_USER_INPUT while an alert rule watches it.',
  })
  async deleteSegment(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: RequestContext,
  ): Promise<SegmentType> {
    return toSegmentType(await this.service.remove(ctx.db, ctx.principal, projectId, id));
  }
}

/** Audit.segments and Audit.segment: the project's segments in this audit. */
@Resolver(() => AuditType)
export class AuditSegmentResolver {
  constructor(private readonly service = new SegmentService()) {}

  @FieldResolver(() => [AuditSegmentType], {
    description: "Each of the project's segments in this audit: URLs, scores, health and issue counts.",
  })
  async segments(@Root() audit: AuditType, @Ctx() ctx: RequestContext): Promise<AuditSegmentType[]> {
    return (await this.service.results(ctx.db, ctx.principal, audit.id, 'apply', ctx.signal)).map(toAuditSegmentType);
  }

  @FieldResolver(() => AuditSegmentType, {
    description: 'One segment of the project in this audit. NOT_FOUND for a segment of another project.',
  })
  async segment(
    @Root() audit: AuditType,
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: RequestContext,
  ): Promise<AuditSegmentType> {
    return toAuditSegmentType(await this.service.result(ctx.db, ctx.principal, audit.id, id, 'apply', ctx.signal));
  }
}
