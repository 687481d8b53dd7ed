import type pg from 'pg';
import { renderMail, type MailMessage } from '../platform/mail.js';
import { IdentityRepository } from './identity.repository.js';

/** An invitation link works for a week (better-auth's default is 48 hours). */
export const INVITATION_EXPIRES_IN_SEC = 60 * 60 * 24 * 7;
/** A password-reset link works for an hour. */
export const RESET_PASSWORD_EXPIRES_IN_SEC = 60 * 60;

export const MEMBER_ROLES = ['owner', 'admin', 'member'] as const;
/** Lowercase letters, digits and single hyphens inside; 2 to 48 characters. */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){1,47}$/;
export const MAX_ORGANIZATION_NAME = 100;

/** A refusal by a team rule; auth.ts turns it into better-auth's APIError (400 with this code and message). */
export class TeamRuleError extends Error {
  override name = 'TeamRuleError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The trigger of migration 0007, which keeps an owner when two changes race past assertKeepsAnOwner. */
export const OWNER_CONSTRAINT = 'member_keeps_an_owner';

/**
 * PostgreSQL's refusal of a change that would leave an organization without an owner, as the rule's refusal (the
 * same code and message as the check before the change); null for any other error.
 */
export function ownerConstraintRefusal(err: unknown): TeamRuleError | null {
  const e = err as { code?: unknown; constraint?: unknown } | null;
  if (e?.code !== '23514' || e.constraint !== OWNER_CONSTRAINT) return null;
  return new TeamRuleError(
    'LAST_OWNER',
    'An organization keeps at least one owner: make another member an owner first.',
  );
}

const rolesOf = (role: string): string[] =>
  role
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);

/**
 * The organization's name and slug as the create and update endpoints receive them: the name trimmed and
 * 1–100 characters, the slug lowercase letters, digits and hyphens. Returns the fields to store.
 */
export function checkOrganizationFields(fields: { name?: unknown; slug?: unknown }, creating: boolean) {
  const out: { name?: string; slug?: string } = {};
  if (fields.name !== undefined || creating) {
    const name = typeof fields.name === 'string' ? fields.name.trim() : '';
    if (!name) throw new TeamRuleError('INVALID_ORGANIZATION_NAME', 'The organization needs a name.');
    if (name.length > MAX_ORGANIZATION_NAME)
      throw new TeamRuleError(
        'INVALID_ORGANIZATION_NAME',
        `The name is too long (at most ${MAX_ORGANIZATION_NAME} characters).`,
      );
    out.name = name;
  }
  if (fields.slug !== undefined || creating) {
    const slug = typeof fields.slug === 'string' ? fields.slug.trim() : '';
    if (!SLUG_PATTERN.test(slug))
      throw new TeamRuleError(
        'INVALID_ORGANIZATION_SLUG',
        'The slug must be 2 to 48 lowercase letters, digits or hyphens, starting and ending with a letter or digit.',
      );
    out.slug = slug;
  }
  return out;
}

export interface AccountDeletionPlan {
  /** Organizations the user is the only member of: deleted with the account, projects included. */
  soloOrganizationIds: string[];
}

/** The rules of organizations and their members that better-auth's organization plugin does not know. */
export class TeamRules {
  constructor(
    private readonly pool: pg.Pool,
    private readonly repo = new IdentityRepository(),
  ) {}

  /**
   * An organization always keeps at least one owner: a member who is its last owner can be neither demoted
   * (`newRoles` without owner) nor removed (`newRoles` null).
   */
  async assertKeepsAnOwner(member: { organizationId: string; role: string }, newRoles: string[] | null) {
    if (!rolesOf(member.role).includes('owner')) return;
    if (newRoles?.includes('owner')) return;
    if ((await this.repo.ownerCount(this.pool, member.organizationId)) <= 1) {
      throw new TeamRuleError(
        'LAST_OWNER',
        newRoles
          ? 'An organization keeps at least one owner: make another member an owner first.'
          : 'The last owner cannot be removed: make another member an owner first.',
      );
    }
  }

  /** Only the three roles of DESIGN §3 (one at a time). */
  checkRole(role: string | string[]): string[] {
    const roles = (Array.isArray(role) ? role : [role]).flatMap(rolesOf);
    if (roles.length !== 1 || !(MEMBER_ROLES as readonly string[]).includes(roles[0]))
      throw new TeamRuleError('INVALID_ROLE', `The role must be one of ${MEMBER_ROLES.join(', ')}.`);
    return roles;
  }

  /**
   * Account deletion: refused while the user is the only owner of an organization that has other members (naming
   * them); the organizations the user is alone in are deleted with the account.
   */
  async planAccountDeletion(userId: string): Promise<AccountDeletionPlan> {
    const memberships = await this.repo.membershipsForDeletion(this.pool, userId);
    const blocking = memberships.filter((m) => m.isOwner && m.owners <= 1 && m.members > 1);
    if (blocking.length) {
      const names = blocking.map((m) => `“${m.name}”`).join(', ');
      throw new TeamRuleError(
        'SOLE_OWNER',
        `You are the only owner of ${names}. Make another member an owner (or remove the other members) first.`,
      );
    }
    return { soloOrganizationIds: memberships.filter((m) => m.members === 1).map((m) => m.id) };
  }

  deleteSoloOrganizations(userId: string, plan: AccountDeletionPlan): Promise<number> {
    return this.repo.deleteSoloOrganizations(this.pool, userId, plan.soloOrganizationIds);
  }
}

const ROLE_NAME: Record<string, string> = { owner: 'an owner', admin: 'an admin', member: 'a member' };

export function invitationMail(input: {
  to: string;
  organizationName: string;
  inviterName: string;
  inviterEmail: string;
  role: string;
  url: string;
  expiresAt: Date;
}): MailMessage {
  const inviter = input.inviterName ? `${input.inviterName} (${input.inviterEmail})` : input.inviterEmail;
  const { text, html } = renderMail({
    heading: `Join ${input.organizationName} on SEO Audit Platform`,
    paragraphs: [
      `${inviter} invited you to join the organization “${input.organizationName}” as ` +
        `${ROLE_NAME[input.role] ?? input.role}.`,
      `Open the link to accept or decline. Sign in, or create an account with this e-mail address (${input.to}) ` +
        `first. The invitation expires on ${input.expiresAt.toUTCString()}.`,
    ],
    action: { label: 'Open the invitation', url: input.url },
  });
  return { to: input.to, subject: `Invitation to join ${input.organizationName}`, text, html };
}

export function resetPasswordMail(input: { to: string; url: string }): MailMessage {
  const { text, html } = renderMail({
    heading: 'Reset your password',
    paragraphs: [
      `Someone (hopefully you) asked to reset the password of the account ${input.to} on SEO Audit Platform.`,
      'The link works once, for one hour. If you did not ask for it, ignore this message: your password stays ' +
        'as it is.',
    ],
    action: { label: 'Choose a new password', url: input.url },
  });
  return { to: input.to, subject: 'Reset your password', text, html };
}

export function changeEmailMail(input: { to: string; url: string }): MailMessage {
  const { text, html } = renderMail({
    heading: 'Confirm your new e-mail address',
    paragraphs: [
      `Someone (hopefully you) asked to use ${input.to} as the e-mail address of their SEO Audit Platform account.`,
      'The address changes when you open the link. If you did not ask for it, ignore this message.',
    ],
    action: { label: 'Confirm the new address', url: input.url },
  });
  return { to: input.to, subject: 'Confirm your new e-mail address', text, html };
}
