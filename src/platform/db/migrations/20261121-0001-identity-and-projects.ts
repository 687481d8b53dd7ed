import { Migration } from '@mikro-orm/migrations';

/**
 * better-auth's tables (as its getMigrations() compiles them for this configuration, with `plan`
 * constrained) plus our identity and project tables. better-auth owns the shape of its tables; a
 * better-auth upgrade that changes them gets its own migration here.
 */
export class IdentityAndProjects20261121 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "user" ("id" text not null primary key, "name" text not null,
        "email" text not null unique, "emailVerified" boolean not null, "image" text,
        "createdAt" timestamptz default CURRENT_TIMESTAMP not null,
        "updatedAt" timestamptz default CURRENT_TIMESTAMP not null);`);
    this.addSql(`create table "session" ("id" text not null primary key, "expiresAt" timestamptz not null,
        "token" text not null unique, "createdAt" timestamptz default CURRENT_TIMESTAMP not null,
        "updatedAt" timestamptz not null, "ipAddress" text, "userAgent" text,
        "userId" text not null references "user" ("id") on delete cascade, "activeOrganizationId" text);`);
    this.addSql(`create table "account" ("id" text not null primary key, "accountId" text not null,
        "providerId" text not null, "userId" text not null references "user" ("id") on delete cascade,
        "accessToken" text, "refreshToken" text, "idToken" text, "accessTokenExpiresAt" timestamptz,
        "refreshTokenExpiresAt" timestamptz, "scope" text, "password" text,
        "createdAt" timestamptz default CURRENT_TIMESTAMP not null, "updatedAt" timestamptz not null);`);
    this.addSql(`create table "verification" ("id" text not null primary key, "identifier" text not null,
        "value" text not null, "expiresAt" timestamptz not null,
        "createdAt" timestamptz default CURRENT_TIMESTAMP not null,
        "updatedAt" timestamptz default CURRENT_TIMESTAMP not null);`);
    this.addSql(`create table "organization" ("id" text not null primary key, "name" text not null,
        "slug" text not null unique, "logo" text, "createdAt" timestamptz not null, "metadata" text,
        "plan" text not null default 'FREE' check ("plan" in ('FREE', 'PRO', 'ENTERPRISE')));`);
    this.addSql(`create table "member" ("id" text not null primary key,
        "organizationId" text not null references "organization" ("id") on delete cascade,
        "userId" text not null references "user" ("id") on delete cascade, "role" text not null,
        "createdAt" timestamptz not null);`);
    this.addSql(`create table "invitation" ("id" text not null primary key,
        "organizationId" text not null references "organization" ("id") on delete cascade,
        "email" text not null, "role" text, "status" text not null, "expiresAt" timestamptz not null,
        "createdAt" timestamptz default CURRENT_TIMESTAMP not null,
        "inviterId" text not null references "user" ("id") on delete cascade);`);
    this.addSql(`create index "session_userId_idx" on "session" ("userId");`);
    this.addSql(`create index "account_userId_idx" on "account" ("userId");`);
    this.addSql(`create index "verification_identifier_idx" on "verification" ("identifier");`);
    this.addSql(`create index "member_organizationId_idx" on "member" ("organizationId");`);
    this.addSql(`create index "member_userId_idx" on "member" ("userId");`);
    this.addSql(`create index "invitation_organizationId_idx" on "invitation" ("organizationId");`);
    this.addSql(`create index "invitation_email_idx" on "invitation" ("email");`);

    this.addSql(`create table "api_key" (
      "id" uuid not null primary key,
      "organization_id" text not null references "organization" ("id") on delete cascade,
      "name" text not null,
      "prefix" text not null,
      "key_hash" text not null unique,
      "created_by" text null references "user" ("id") on delete set null,
      "created_at" timestamptz not null default now(),
      "last_used_at" timestamptz null,
      "revoked_at" timestamptz null);`);
    this.addSql(`create index "api_key_active_org_idx" on "api_key" ("organization_id") where "revoked_at" is null;`);

    this.addSql(`create table "project" (
      "id" uuid not null primary key,
      "organization_id" text not null references "organization" ("id") on delete cascade,
      "name" text not null,
      "url" text not null,
      "domain" text not null,
      "settings" jsonb not null default '{}',
      "created_at" timestamptz not null default now(),
      constraint "project_org_url_unique" unique ("organization_id", "url"));`);
    this.addSql(`create index "project_org_created_idx" on "project" ("organization_id", "created_at");`);
  }

  override async down(): Promise<void> {
    for (const t of [
      'project',
      'api_key',
      'invitation',
      'member',
      'organization',
      'verification',
      'account',
      'session',
      'user',
    ]) {
      this.addSql(`drop table if exists "${t}" cascade;`);
    }
  }
}
