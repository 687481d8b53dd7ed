import DataLoader from 'dataloader';
import { Arg, Ctx, FieldResolver, ID, Mutation, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../platform/context.js';
import type { CrawlLoginFacts } from './crawl-login.model.js';
import type { CrawlLoginService } from './crawl-login.service.js';
import { CrawlLoginInput, CrawlLoginKindEnum, CrawlLoginType } from './crawl-login.types.js';
import { toProjectType } from './project.resolver.js';
import { ProjectType } from './project.types.js';

const toCrawlLoginType = (facts: CrawlLoginFacts): CrawlLoginType => ({
  kind: CrawlLoginKindEnum[facts.kind],
  loginUrl: facts.loginUrl,
  usernameField: facts.usernameField,
  passwordField: facts.passwordField,
  extraFieldNames: facts.extraFieldNames,
  headerName: facts.headerName,
  cookieNames: facts.cookieNames,
  boundTo: {
    startUrl: facts.boundTo.startUrl,
    includeSubdomains: facts.boundTo.includeSubdomains,
    includePatterns: facts.boundTo.include,
    excludePatterns: facts.boundTo.exclude,
  },
  suspendedReason: facts.suspendedReason,
  updatedAt: facts.updatedAt,
});

/** Project.crawlLogin and the mutations that set and clear it (write-only credentials: facts out, secrets in). */
@Resolver(() => ProjectType)
export class CrawlLoginResolver {
  constructor(private readonly service: CrawlLoginService) {}

  @FieldResolver(() => CrawlLoginType, {
    nullable: true,
    description: "The project's crawl login (its non-secret facts); null when the crawl does not sign in.",
  })
  async crawlLogin(@Root() project: ProjectType, @Ctx() ctx: RequestContext): Promise<CrawlLoginType | null> {
    // The project was read through its owner's query: its login's facts are the caller's to see. Batched per request.
    const loader = ctx.loaders.get(
      'crawlLogin',
      () => new DataLoader<string, CrawlLoginFacts | null>((ids) => this.service.factsOf(ctx.db, ids)),
    );
    const facts = await loader.load(project.id);
    return facts ? toCrawlLoginType(facts) : null;
  }

  @Mutation(() => ProjectType, {
    description:
      "Sets (or replaces) a project's crawl login; owners and admins only. The secret values are stored encrypted " +
      "and never returned; they are sealed with the project's current start URL and crawl scope (boundTo) and sent " +
      'only inside them.',
  })
  async setCrawlLogin(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('input', () => CrawlLoginInput) input: CrawlLoginInput,
    @Ctx() ctx: RequestContext,
  ): Promise<ProjectType> {
    return toProjectType(await this.service.set(ctx.em, ctx.principal, projectId, input));
  }

  @Mutation(() => ProjectType, {
    description:
      "Confirms a project's crawl login for the project's current start URL and crawl scope (owners and admins): " +
      'a login suspended by a change of host, subdomains turned on or a wider scope is used again, its secrets ' +
      'unchanged. NOT_FOUND when the project has no login.',
  })
  async confirmCrawlLogin(
    @Arg('projectId', () => ID) projectId: string,
    @Ctx() ctx: RequestContext,
  ): Promise<ProjectType> {
    return toProjectType(await this.service.confirm(ctx.em, ctx.principal, projectId));
  }

  @Mutation(() => ProjectType, { description: "Removes a project's crawl login: its audits crawl signed out again." })
  async clearCrawlLogin(
    @Arg('projectId', () => ID) projectId: string,
    @Ctx() ctx: RequestContext,
  ): Promise<ProjectType> {
    return toProjectType(await this.service.clear(ctx.em, ctx.principal, projectId));
  }
}
