import { Migration } from '@mikro-orm/migrations';

/**
 * An invitation's acceptance secret, apart from better-auth's "invitation" row (whose id members could list and
 * which better-auth returns whole): the SHA-256 of the random secret carried by the link the invitee receives.
 * Without mail, accepting (or declining, or reading) an invitation takes the secret, not the id alone. A new link
 * replaces the hash; the row goes with its invitation.
 */
export class InvitationSecret20261126 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "invitation_secret" (
      "invitation_id" text primary key references "invitation" ("id") on delete cascade,
      "secret_hash" bytea not null,
      "created_at" timestamptz not null default now()
    );`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "invitation_secret";');
  }
}
