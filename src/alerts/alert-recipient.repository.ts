import { nativeQuery, queryOn, type NativeDb, type NativeTx } from '../platform/db/native-query.js';
import type { AlertProject } from './alert-facts.repository.js';

export interface MailPreferenceRow {
  immediate: boolean;
  weeklyDigest: boolean;
}

/** Who gets a mail: a member of the project's organization who opted in. */
export interface MailRecipient {
  userId: string;
  email: string;
  name: string;
}

/** Who receives alert mail: members' e-mail preferences, unsubscriptions and digest subscriptions. */
export class AlertRecipientRepository {
  async preference(db: NativeDb, userId: string, projectId: string): Promise<MailPreferenceRow> {
    const [row] = await nativeQuery<MailPreferenceRow>(
      db,
      `SELECT immediate, weekly_digest AS "weeklyDigest" FROM alert_mail_preference
       WHERE user_id = $1 AND project_id = $2`,
      [userId, projectId],
    );
    return row ?? { immediate: false, weeklyDigest: false };
  }

  async savePreference(db: NativeDb, userId: string, projectId: string, p: MailPreferenceRow): Promise<void> {
    await nativeQuery(
      db,
      `INSERT INTO alert_mail_preference (user_id, project_id, immediate, weekly_digest) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, project_id) DO UPDATE SET immediate = EXCLUDED.immediate,
         weekly_digest = EXCLUDED.weekly_digest, updated_at = now()`,
      [userId, projectId, p.immediate, p.weeklyDigest],
    );
  }

  /** Turns every alert e-mail of the user off; the number of projects that had one on. */
  async unsubscribeAll(db: NativeDb, userId: string): Promise<number> {
    const rows = await nativeQuery<{ project_id: string }>(
      db,
      `UPDATE alert_mail_preference SET immediate = false, weekly_digest = false, updated_at = now()
       WHERE user_id = $1 AND (immediate OR weekly_digest) RETURNING project_id`,
      [userId],
    );
    return rows.length;
  }

  /** Members of the project's organization who want its alerts by e-mail as they happen. */
  immediateRecipients(db: NativeDb | NativeTx, projectId: string): Promise<MailRecipient[]> {
    return queryOn<MailRecipient>(
      db,
      `SELECT u.id AS "userId", u.email, u.name FROM alert_mail_preference ap
       JOIN project p ON p.id = ap.project_id
       JOIN "member" m ON m."userId" = ap.user_id AND m."organizationId" = p.organization_id
       JOIN "user" u ON u.id = ap.user_id
       WHERE ap.project_id = $1 AND ap.immediate ORDER BY u.email`,
      [projectId],
    );
  }

  /** The recipient when they still want the project's alerts and are still a member; undefined otherwise. */
  async immediateRecipient(db: NativeDb, projectId: string, userId: string): Promise<MailRecipient | undefined> {
    const [row] = await nativeQuery<MailRecipient>(
      db,
      `SELECT u.id AS "userId", u.email, u.name FROM alert_mail_preference ap
       JOIN project p ON p.id = ap.project_id
       JOIN "member" m ON m."userId" = ap.user_id AND m."organizationId" = p.organization_id
       JOIN "user" u ON u.id = ap.user_id
       WHERE ap.project_id = $1 AND ap.user_id = $2 AND ap.immediate`,
      [projectId, userId],
    );
    return row;
  }

  /** Users who want a weekly digest of at least one project they are still a member of. */
  async digestUserIds(db: NativeDb): Promise<string[]> {
    const rows = await nativeQuery<{ user_id: string }>(
      db,
      `SELECT DISTINCT ap.user_id FROM alert_mail_preference ap JOIN project p ON p.id = ap.project_id
       JOIN "member" m ON m."userId" = ap.user_id AND m."organizationId" = p.organization_id
       WHERE ap.weekly_digest ORDER BY ap.user_id`,
    );
    return rows.map((r) => r.user_id);
  }

  /** The user and the projects whose digest they want (still a member), by name. */
  async digestSubscription(
    db: NativeDb,
    userId: string,
  ): Promise<{ recipient: MailRecipient; projects: AlertProject[] } | undefined> {
    const [user] = await nativeQuery<MailRecipient>(
      db,
      'SELECT id AS "userId", email, name FROM "user" WHERE id = $1',
      [userId],
    );
    if (!user) return undefined;
    const projects = await nativeQuery<AlertProject>(
      db,
      `SELECT p.id, p.organization_id AS "organizationId", p.name, p.url, p.domain FROM alert_mail_preference ap
       JOIN project p ON p.id = ap.project_id
       JOIN "member" m ON m."userId" = ap.user_id AND m."organizationId" = p.organization_id
       WHERE ap.user_id = $1 AND ap.weekly_digest ORDER BY p.name, p.id`,
      [userId],
    );
    return { recipient: user, projects };
  }

  async userEmail(db: NativeDb, userId: string): Promise<string | undefined> {
    const [row] = await nativeQuery<{ email: string }>(db, 'SELECT email FROM "user" WHERE id = $1', [userId]);
    return row?.email;
  }
}
