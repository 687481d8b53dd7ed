import { Arg, Ctx, FieldResolver, ID, Mutation, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../platform/context.js';
import type { CheckSettingsService, CheckSettingView } from './check-settings.service.js';
import { CheckSettingInput, CheckSettingType } from './check-settings.types.js';
import { ProjectType } from '../projects/graphql.js';

const toType = (v: CheckSettingView) => v as unknown as CheckSettingType;

/** Per-project check settings: `Project.checkSettings`, set and reset one code (write access). */
@Resolver(() => ProjectType)
export class CheckSettingsResolver {
  constructor(private readonly service: CheckSettingsService) {}

  @FieldResolver(() => [CheckSettingType], {
    description:
      "Every catalog check as this project's audits apply it: enabled or not, and its severity (docs/scores.md: " +
      'a disabled check counts nowhere; an overridden severity is costed as that severity).',
  })
  async checkSettings(@Root() project: ProjectType, @Ctx() ctx: RequestContext): Promise<CheckSettingType[]> {
    return (await this.service.forProject(ctx.db, project.id)).map(toType);
  }

  @Mutation(() => CheckSettingType, {
    description: "Sets one check's setting for the project's next audits (past audits keep theirs).",
  })
  async setCheckSetting(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('input', () => CheckSettingInput) input: CheckSettingInput,
    @Ctx() ctx: RequestContext,
  ): Promise<CheckSettingType> {
    return toType(await this.service.set(ctx.db, ctx.principal, projectId, input));
  }

  @Mutation(() => CheckSettingType, { description: "Resets one check to the catalog's setting for the project." })
  async resetCheckSetting(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('code', () => String) code: string,
    @Ctx() ctx: RequestContext,
  ): Promise<CheckSettingType> {
    return toType(await this.service.reset(ctx.db, ctx.principal, projectId, code));
  }
}
