import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType('OrganizationUsage', { description: "The organization's use of its plan, beside the plan's limits." })
export class OrganizationUsageType {
  @Field(() => Int) projects!: number;
  @Field(() => Int) projectsLimit!: number;
  @Field(() => Int, { description: 'Audits created since the start of the current month (UTC), any status.' })
  auditsThisMonth!: number;
  @Field(() => Int, { description: 'Tracked keywords across all projects.' }) keywords!: number;
  @Field(() => Int) keywordsPerProjectLimit!: number;
  @Field(() => Int) competitorsPerProjectLimit!: number;
  @Field(() => Int) pagesPerAuditLimit!: number;
  @Field(() => Int, { description: 'Active (not revoked) API keys.' }) apiKeys!: number;
  @Field(() => Int) apiKeysLimit!: number;
}
