import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';

export enum PlanEnum {
  FREE = 'FREE',
  PRO = 'PRO',
  ENTERPRISE = 'ENTERPRISE',
}
registerEnumType(PlanEnum, {
  name: 'Plan',
  description: 'FREE = free tools only, PRO = read-only API, ENTERPRISE = full API.',
});

export enum ApiAccessEnum {
  NONE = 'NONE',
  READ_ONLY = 'READ_ONLY',
  FULL = 'FULL',
}
registerEnumType(ApiAccessEnum, {
  name: 'ApiAccess',
  description: 'NONE = free tools only, READ_ONLY = queries and GETs, FULL = reads and changes.',
});

@ObjectType('Organization')
export class OrganizationType {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String) slug!: string;
  @Field(() => PlanEnum) plan!: PlanEnum;
  @Field(() => Date) createdAt!: Date;
  @Field(() => ApiAccessEnum, {
    description: 'What Surface A (/api/v1) and key-authenticated GraphQL allow on this plan.',
  })
  apiAccess!: ApiAccessEnum;
}

@ObjectType('Member')
export class MemberType {
  @Field(() => ID) id!: string;
  @Field(() => ID) userId!: string;
  @Field(() => String) email!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { description: 'owner, admin or member' }) role!: string;
  @Field(() => Date) createdAt!: Date;
}

@ObjectType('Viewer', { description: 'Who is calling, for which organization, by which credential.' })
export class ViewerType {
  @Field(() => ID, { nullable: true }) userId!: string | null;
  @Field(() => String) role!: string;
  @Field(() => String, { description: 'API_KEY or SESSION' }) via!: string;
  @Field(() => OrganizationType) organization!: OrganizationType;
}

@ObjectType('ApiKey', { description: 'An API key for Surface A; the secret is shown once, at creation.' })
export class ApiKeyType {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { description: 'First 8 characters of the key.' }) prefix!: string;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { nullable: true }) lastUsedAt!: Date | null;
  @Field(() => Date, { nullable: true }) revokedAt!: Date | null;
}

@ObjectType('CreatedApiKey')
export class CreatedApiKeyType {
  @Field(() => String, { description: 'The full key. It is not stored and cannot be shown again.' }) key!: string;
  @Field(() => ApiKeyType) apiKey!: ApiKeyType;
}
