import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Plan } from '../platform/config.js';
import type { RequestContext } from '../platform/context.js';
import { OrganizationType } from '../identity/graphql.js';
import type { OrganizationUsageService } from './organization-usage.service.js';
import { OrganizationUsageType } from './organization-usage.types.js';

/** Organization.usage: counted here, where the organization's projects live. */
@Resolver(() => OrganizationType)
export class OrganizationUsageResolver {
  constructor(private readonly service: OrganizationUsageService) {}

  @FieldResolver(() => OrganizationUsageType)
  usage(@Root() organization: OrganizationType, @Ctx() ctx: RequestContext): Promise<OrganizationUsageType> {
    return this.service.usage(ctx.db, ctx.principal, organization.id, organization.plan as Plan);
  }
}
