import { Arg, Ctx, FieldResolver, ID, Mutation, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../platform/context.js';
import type { CustomExtractorService, CustomExtractorView } from './custom-extractor.service.js';
import { CustomExtractorInput, CustomExtractorType } from './custom-extractor.types.js';
import { ProjectType } from './project.types.js';

const toType = (v: CustomExtractorView) => v as unknown as CustomExtractorType;

/** A project's custom extractors: `Project.extractors`, add, update and delete (write access). */
@Resolver(() => ProjectType)
export class CustomExtractorResolver {
  constructor(private readonly service: CustomExtractorService) {}

  @FieldResolver(() => [CustomExtractorType], {
    description: "The project's custom extractors and searches, oldest first (docs/custom-extraction.md).",
  })
  async extractors(@Root() project: ProjectType, @Ctx() ctx: RequestContext): Promise<CustomExtractorType[]> {
    return (await this.service.forProject(ctx.db, project.id)).map(toType);
  }

  @Mutation(() => CustomExtractorType, {
    description: "Adds an extractor for the project's next audits (at most 20; BAD_USER_INPUT beyond).",
  })
  async addExtractor(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('input', () => CustomExtractorInput) input: CustomExtractorInput,
    @Ctx() ctx: RequestContext,
  ): Promise<CustomExtractorType> {
    return toType(await this.service.add(ctx.db, ctx.principal, projectId, input));
  }

  @Mutation(() => CustomExtractorType, {
    description: 'Changes an extractor; its key (and column) stays. Past audits keep the values they stored.',
  })
  async updateExtractor(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => CustomExtractorInput) input: CustomExtractorInput,
    @Ctx() ctx: RequestContext,
  ): Promise<CustomExtractorType> {
    return toType(await this.service.update(ctx.db, ctx.principal, id, input));
  }

  @Mutation(() => CustomExtractorType, { description: 'Deletes an extractor; past audits keep their values.' })
  async deleteExtractor(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<CustomExtractorType> {
    return toType(await this.service.remove(ctx.db, ctx.principal, id));
  }
}
