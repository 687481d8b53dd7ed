import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../platform/context.js';
import { apiAccessFor, requirePrincipal } from './access.js';
import type { ApiKey } from './api-key.entity.js';
import type { ApiKeyService } from './api-key.service.js';
import {
  ApiKeyType,
  CreatedApiKeyType,
  MemberType,
  OrganizationType,
  ViewerType,
  type ApiAccessEnum,
  type PlanEnum,
} from './identity.types.js';
import type { OrganizationService } from './organization.service.js';

const toApiKeyType = (k: ApiKey): ApiKeyType => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  createdAt: k.createdAt,
  lastUsedAt: k.lastUsedAt ?? null,
  revokedAt: k.revokedAt ?? null,
});

@Resolver()
export class IdentityResolver {
  constructor(
    private readonly keyService: ApiKeyService,
    private readonly organizations: OrganizationService,
    private readonly options: { mailEnabled: boolean } = { mailEnabled: false },
  ) {}

  @Query(() => Boolean, {
    description:
      'Whether the platform sends e-mail (SMTP_URL is set). Without it invitation links are shown to the inviter ' +
      'to pass on, and a forgotten password is reset by an administrator (`seo user set-password`).',
  })
  mailEnabled(): boolean {
    return this.options.mailEnabled;
  }

  @Query(() => ViewerType)
  async viewer(@Ctx() ctx: RequestContext): Promise<ViewerType> {
    const p = requirePrincipal(ctx.principal);
    const org = await this.organizations.current(ctx.em, p);
    const organization = { ...org, plan: org.plan as PlanEnum, apiAccess: apiAccessFor(org.plan) as ApiAccessEnum };
    return { userId: p.userId ?? null, role: p.role, via: p.via, organization };
  }

  @Query(() => [MemberType])
  async members(@Ctx() ctx: RequestContext): Promise<MemberType[]> {
    return this.organizations.members(ctx.em, ctx.principal);
  }

  @Query(() => [ApiKeyType], { description: 'Owners and admins only.' })
  async apiKeys(@Ctx() ctx: RequestContext): Promise<ApiKeyType[]> {
    return (await this.keyService.list(ctx.em, ctx.principal)).map(toApiKeyType);
  }

  @Mutation(() => CreatedApiKeyType, { description: 'Owners and admins only; at most 5 active keys per organization.' })
  async createApiKey(@Arg('name', () => String) name: string, @Ctx() ctx: RequestContext): Promise<CreatedApiKeyType> {
    const { apiKey, key } = await this.keyService.create(ctx.em, ctx.principal, name);
    return { key, apiKey: toApiKeyType(apiKey) };
  }

  @Mutation(() => ApiKeyType, { description: 'Owners and admins only.' })
  async revokeApiKey(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<ApiKeyType> {
    return toApiKeyType(await this.keyService.revoke(ctx.em, ctx.principal, id));
  }
}

export { OrganizationType };
