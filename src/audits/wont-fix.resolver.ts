import DataLoader from 'dataloader';
import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../platform/context.js';
import { findCheck } from '../seo/checks/index.js';
import { ProjectType } from '../projects/graphql.js';
import { IssueOccurrenceType, IssueType } from './audit.types.js';
import type { WontFixService, WontFixView } from './wont-fix.service.js';
import { MarkWontFixInput, WontFixType } from './wont-fix.types.js';

const toType = (v: WontFixView): WontFixType => ({
  id: v.id,
  code: v.code,
  title: findCheck(v.code)?.title ?? v.code,
  url: v.url,
  reason: v.reason,
  markedByName: v.markedByName,
  markedAt: v.markedAt,
});

/** Per request: markings by (project, code, URL) and "won't fix" counts by audit, one query per batch. */
function loaders(ctx: RequestContext, service: WontFixService) {
  return {
    marking: ctx.loaders.get(
      'audits.wontFix.marking',
      () =>
        new DataLoader<string, WontFixView | null>(async (keys) => {
          const groups = new Map<string, string[]>();
          for (const key of keys) {
            const [projectId, code, url] = JSON.parse(key) as [string, string, string];
            const group = `${projectId}\n${code}`;
            groups.set(group, [...(groups.get(group) ?? []), url]);
          }
          const found = new Map<string, WontFixView>();
          for (const [group, urls] of groups) {
            const [projectId, code] = group.split('\n') as [string, string];
            for (const [url, row] of await service.forUrls(ctx.db, projectId, code, urls))
              found.set(JSON.stringify([projectId, code, url]), row);
          }
          return keys.map((key) => found.get(key) ?? null);
        }),
    ),
    counts: ctx.loaders.get(
      'audits.wontFix.counts',
      () =>
        new DataLoader<string, Map<string, number>>((auditIds) =>
          Promise.all(auditIds.map((id) => service.countsByCode(ctx.db, id))),
        ),
    ),
  };
}

/** "Won't fix": a project's markings, marking and undoing one (write access). */
@Resolver(() => ProjectType)
export class WontFixResolver {
  constructor(private readonly service: WontFixService) {}

  @FieldResolver(() => [WontFixType], {
    description: 'The project\'s "won\'t fix" markings, the latest first: who marked what, when and why.',
  })
  async wontFixes(@Root() project: ProjectType, @Ctx() ctx: RequestContext): Promise<WontFixType[]> {
    return (await this.service.list(ctx.db, project.id)).map(toType);
  }

  @Mutation(() => WontFixType, {
    description:
      'Marks one occurrence of a completed audit as "won\'t fix" with a reason (replacing the reason of an earlier ' +
      "marking of the same code and URL); the project's latest completed audit is rescored without it.",
  })
  async markWontFix(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('input', () => MarkWontFixInput) input: MarkWontFixInput,
    @Ctx() ctx: RequestContext,
  ): Promise<WontFixType> {
    return toType(await this.service.mark(ctx.db, ctx.principal, projectId, input));
  }

  @Mutation(() => WontFixType, {
    description: 'Removes a "won\'t fix" marking; the project\'s latest completed audit is rescored with it again.',
  })
  async undoWontFix(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: RequestContext,
  ): Promise<WontFixType> {
    return toType(await this.service.undo(ctx.db, ctx.principal, projectId, id));
  }
}

/** Issue.wontFixCount. */
@Resolver(() => IssueType)
export class WontFixIssueResolver {
  constructor(private readonly service: WontFixService) {}

  @FieldResolver(() => Int, {
    description:
      'Of its occurrences, those marked "won\'t fix" (left out of the score; still listed, flagged). 0 when none.',
  })
  async wontFixCount(@Root() issue: IssueType, @Ctx() ctx: RequestContext): Promise<number> {
    return (await loaders(ctx, this.service).counts.load(issue.auditId)).get(issue.code) ?? 0;
  }
}

/** IssueOccurrence.wontFix. */
@Resolver(() => IssueOccurrenceType)
export class WontFixOccurrenceResolver {
  constructor(private readonly service: WontFixService) {}

  @FieldResolver(() => WontFixType, {
    nullable: true,
    description: 'The project\'s "won\'t fix" marking of this code and URL, if any: who, when and why.',
  })
  async wontFix(@Root() occurrence: IssueOccurrenceType, @Ctx() ctx: RequestContext): Promise<WontFixType | null> {
    const key = JSON.stringify([occurrence.projectId, occurrence.code, occurrence.url]);
    const row = await loaders(ctx, this.service).marking.load(key);
    return row && toType(row);
  }
}
