import { Arg, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import type { RequestContext } from '../platform/context.js';
import type { FixService } from './fix.service.js';
import { FixSuggestionType, SuggestFixInput } from './fix.types.js';

@Resolver(() => FixSuggestionType)
export class FixResolver {
  constructor(private readonly service: FixService) {}

  @Mutation(() => FixSuggestionType, {
    description: 'A concrete fix for an audit issue on one of its pages (language model when configured, else rules).',
  })
  suggestFix(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('input', () => SuggestFixInput) input: SuggestFixInput,
    @Ctx() ctx: RequestContext,
  ): Promise<FixSuggestionType> {
    return this.service.suggest(ctx.em, ctx.principal, projectId, input);
  }
}
