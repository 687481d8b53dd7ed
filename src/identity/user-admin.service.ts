import type pg from 'pg';
import type { Plan } from '../platform/config.js';
import { badInput } from '../platform/errors.js';
import type { Auth } from './auth.js';
import { IdentityRepository } from './identity.repository.js';

/**
 * Users managed by an administrator (the CLI's `seo user`): sign-up without a session, and a password set by the
 * server (a forgotten password when no mail can be sent). better-auth owns the user tables; these go through it and
 * through the module's repository.
 */
export class UserAdminService {
  constructor(private readonly repo = new IdentityRepository()) {}

  /** The id of the user with this email (case-insensitive), or null. */
  idByEmail(pool: pg.Pool, email: string): Promise<string | null> {
    return this.repo.userIdByEmail(pool, email);
  }

  /** Signs a user up (their personal organization is made by the sign-up hook): the user and their organizations. */
  async create(
    auth: Auth,
    pool: pg.Pool,
    input: { email: string; password: string; name: string },
  ): Promise<{
    user: { id: string; email: string; name: string };
    organizations: { id: string; name: string; slug: string; plan: Plan }[];
  }> {
    const res = await auth.api.signUpEmail({ body: input });
    const organizations = await this.repo.organizationsOfUser(pool, res.user.id);
    return { user: { id: res.user.id, email: res.user.email, name: res.user.name }, organizations };
  }

  /**
   * Sets the password of the user with this email and ends their sessions: the user's id, or null when there is no
   * such user. The password is checked first; better-auth (`auth`) loads only for a user that exists.
   */
  async setPassword(pool: pg.Pool, email: string, password: string, auth: () => Promise<Auth>): Promise<string | null> {
    if (password.length < 8 || password.length > 128) throw badInput('the password must be 8 to 128 characters');
    const userId = await this.repo.userIdByEmail(pool, email);
    if (!userId) return null;
    const ctx = await (await auth()).$context;
    await ctx.internalAdapter.updatePassword(userId, await ctx.password.hash(password));
    await ctx.internalAdapter.deleteUserSessions(userId);
    return userId;
  }
}
