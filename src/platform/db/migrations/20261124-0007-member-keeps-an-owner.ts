import { Migration } from '@mikro-orm/migrations';

/**
 * An organization with members always keeps an owner, enforced by PostgreSQL. TeamRules checks it in better-auth's
 * before-hooks with a clear message, but those run on another connection before better-auth's own UPDATE or DELETE:
 * two owners demoting each other at once both pass the check. This trigger runs inside the statement's transaction,
 * takes the organization's row lock so that such changes queue, and counts the owners after the change (each
 * statement of a PL/pgSQL function sees what committed before it under READ COMMITTED). Removing the last member
 * (account deletion, a solo organization deleted) leaves no member and is allowed.
 */
export class MemberKeepsAnOwner20261124 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function "member_keeps_an_owner"() returns trigger language plpgsql as $$
begin
  perform 1 from "organization" where "id" = old."organizationId" for no key update;
  if not found then
    return null;
  end if;
  if exists (select 1 from "member" where "organizationId" = old."organizationId")
     and not exists (select 1 from "member" where "organizationId" = old."organizationId"
                       and 'owner' = any(string_to_array(replace("role", ' ', ''), ','))) then
    raise exception 'An organization keeps at least one owner.'
      using errcode = 'check_violation', constraint = 'member_keeps_an_owner';
  end if;
  return null;
end $$;`);
    this.addSql(`create trigger "member_keeps_an_owner" after update of "role" or delete on "member"
      for each row when ('owner' = any(string_to_array(replace(old."role", ' ', ''), ',')))
      execute function "member_keeps_an_owner"();`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists "member_keeps_an_owner" on "member";');
    this.addSql('drop function if exists "member_keeps_an_owner"();');
  }
}
