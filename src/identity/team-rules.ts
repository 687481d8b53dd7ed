import type pg from 'pg';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
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

/**
 * A refusal by a team rule; auth.ts turns it into better-auth's APIError with this status (400 for a request the
 * rules refuse, 403 for an action the caller may not take), code and message.
 */
export class TeamRuleError extends Error {
  override name = 'TeamRuleError';
  constructor(
    readonly code: string,
    message: string,
    readonly status: 'BAD_REQUEST' | 'FORBIDDEN' = 'BAD_REQUEST',
  ) {
    super(message);
  }
}

/** An invitation's acceptance secret: 32 random bytes, base64url. Only its SHA-256 is stored. */
const newInvitationSecret = (): string => randomBytes(32).toString('base64url');
const secretHash = (secret: string): Buffer => createHash('sha256').update(secret).digest();

/** The link an invitation is accepted through: the secret is in the fragment, which browsers never send. */
export const invitationLink = (baseUrl: string, invitationId: string, secret: string): string =>
  `${baseUrl}/invitations/${encodeURIComponent(invitationId)}#${secret}`;

/** An invitation as better-auth lists it. */
export interface ListedInvitation {
  id?: string;
  status: string;
  expiresAt: string | Date;
  [field: string]: unknown;
}

/**
 * An invitation as list-invitations shows it: a pending one whose time is past is `expired`; its id (which, with the
 * link's secret, opens it) only to the owners and admins who resend or revoke it.
 */
export function invitationAsListed(invitation: ListedInvitation, manages: boolean, now = new Date()): ListedInvitation {
  const expired = invitation.status === 'pending' && new Date(invitation.expiresAt).getTime() <= now.getTime();
  const { id, ...rest } = invitation;
  return { ...(manages ? { id } : {}), ...rest, status: expired ? 'expired' : invitation.status };
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

  /**
   * Removing a member: owners and admins remove members; only an owner removes an owner, and the organization keeps
   * one (the last owner stays). Returns without a word when the caller is not in the organization: better-auth's
   * own check answers that.
   */
  async assertMayRemove(actorUserId: string, organizationId: string, memberIdOrEmail: string) {
    const actor = rolesOf(await this.repo.roleIn(this.pool, actorUserId, organizationId));
    const target = await this.repo.memberRoleByIdOrEmail(this.pool, organizationId, memberIdOrEmail);
    if (!actor.length) return;
    // A member of another organization, by id, is no member of this one (better-auth would say whether it is an owner).
    if (target === null) throw new TeamRuleError('MEMBER_NOT_FOUND', 'There is no such member in this organization.');
    if (!actor.includes('owner') && !actor.includes('admin'))
      throw new TeamRuleError(
        'YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER',
        'Only owners and admins remove members (to leave the organization, leave it).',
        'FORBIDDEN',
      );
    if (rolesOf(target).includes('owner') && !actor.includes('owner'))
      throw new TeamRuleError(
        'YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER',
        'Only an owner can remove an owner.',
        'FORBIDDEN',
      );
    await this.assertKeepsAnOwner({ organizationId, role: target }, null);
  }

  /** Whether the user manages the organization's members and invitations (an owner or an admin of it). */
  async manages(userId: string, organizationId: string): Promise<boolean> {
    const roles = rolesOf(await this.repo.roleIn(this.pool, userId, organizationId));
    return roles.includes('owner') || roles.includes('admin');
  }

  /** Gives the invitation a new acceptance secret (the previous link stops working) and returns it. */
  async issueInvitationSecret(invitationId: string): Promise<string> {
    const secret = newInvitationSecret();
    await this.repo.storeInvitationSecret(this.pool, invitationId, secretHash(secret));
    return secret;
  }

  /**
   * Reading, accepting or declining an invitation: a secret given must be its link's; without mail one must be given
   * (with mail, the invitee's verified address proves the invitation reached them: better-auth's
   * requireEmailVerificationOnInvitation). An unknown invitation is left to better-auth (INVITATION_NOT_FOUND).
   */
  async checkInvitationSecret(invitationId: unknown, secret: unknown, required: boolean): Promise<void> {
    if (typeof invitationId !== 'string' || !invitationId) return;
    const stored = await this.repo.invitationSecretHash(this.pool, invitationId);
    if (!stored) return;
    if (secret === undefined || secret === null || secret === '') {
      if (!required) return;
      throw new TeamRuleError(
        'INVITATION_SECRET_REQUIRED',
        'An invitation is opened through its link, which carries its secret: open the link you received ' +
          '(ask whoever invited you for a new one if you have none).',
        'FORBIDDEN',
      );
    }
    const given = typeof secret === 'string' ? secretHash(secret) : null;
    if (!given || !stored.hash || !timingSafeEqual(given, stored.hash))
      throw new TeamRuleError(
        'INVALID_INVITATION_SECRET',
        'This invitation link is not valid (it was replaced by a newer one, or mistyped): ask whoever invited ' +
          'you for a new one.',
        'FORBIDDEN',
      );
  }

  /** Only the three roles (docs/api.md, Teams and invitations), one at a time. */
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
        `and confirm the address, first. The invitation expires on ${input.expiresAt.toUTCString()}.`,
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

export function verifyEmailMail(input: { to: string; url: string }): MailMessage {
  const { text, html } = renderMail({
    heading: 'Confirm your e-mail address',
    paragraphs: [
      `Someone (hopefully you) created an account on SEO Audit Platform with the address ${input.to}.`,
      'Open the link to confirm it: an invitation to an organization is accepted with a confirmed address. If you ' +
        'did not sign up, ignore this message.',
    ],
    action: { label: 'Confirm the address', url: input.url },
  });
  return { to: input.to, subject: 'Confirm your e-mail address', text, html };
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
