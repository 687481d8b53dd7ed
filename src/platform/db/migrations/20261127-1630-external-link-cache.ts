import { Migration } from '@mikro-orm/migrations';

/**
 * External link verdicts per project, kept a day: a later audit of the same project within 24 hours reuses a URL's
 * verdict instead of asking its host again (external-link-cache.repository.ts). Keyed by project and URL, so a
 * verdict is never shared between projects (nor organizations); rows go with their project. `outcome` is 'answered'
 * (status, redirected) or 'failed' (the connection was refused, TLS failed: `failure`); "could not check" results
 * (DNS, timeouts, our policy) are not kept. Rows older than a day are replaced on the next check, and deleted by the
 * audit that finds them.
 */
export class ExternalLinkCache20261127 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "external_link_check" (
      "project_id" uuid not null references "project" ("id") on delete cascade,
      "url" text not null,
      "outcome" text not null check ("outcome" in ('answered', 'failed')),
      "status" int null,
      "redirected" boolean not null default false,
      "failure" text null,
      "checked_at" timestamptz not null default now(),
      primary key ("project_id", "url"));`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "external_link_check";');
  }
}
