import { getNextMillis } from 'bullmq';
import { badInput } from '../platform/errors.js';

/**
 * The rule of a project's audit schedule, without I/O: what a valid schedule is, the BullMQ repeat option it becomes,
 * and when it runs next. The next run is computed by BullMQ's own function (`getNextMillis`, cron-parser in the
 * schedule's time zone), so the time the app shows is the time the job scheduler fires.
 *
 * Decisions:
 * - A day of the month past the month's end (29, 30 or 31 in a shorter month) runs on the month's last day: "31"
 *   is the last day of every month, "30" is the 30th or the 28th/29th of February.
 * - A local time that a daylight-saving change skips (02:30 on the night clocks go forward) runs an hour later that
 *   day (03:30); a time that occurs twice (clocks going back) runs once, at its first occurrence.
 * - Days of the week are ISO: 1 = Monday ... 7 = Sunday.
 */

export const AUDIT_SCHEDULE_FREQUENCIES = ['OFF', 'DAILY', 'WEEKLY', 'MONTHLY'] as const;
export type AuditScheduleFrequency = (typeof AUDIT_SCHEDULE_FREQUENCIES)[number];

export interface AuditSchedule {
  frequency: AuditScheduleFrequency;
  /** Local time of day, HH:MM (24 h), in `timeZone`. */
  time: string;
  /** An IANA time zone name, as Intl names it (e.g. Europe/Berlin). */
  timeZone: string;
  /** ISO day of the week (1 = Monday ... 7 = Sunday); used by WEEKLY. */
  dayOfWeek: number | null;
  /** Day of the month (1-31; past the month's end = its last day); used by MONTHLY. */
  dayOfMonth: number | null;
}

export const DEFAULT_AUDIT_SCHEDULE: AuditSchedule = {
  frequency: 'OFF',
  time: '09:00',
  timeZone: 'UTC',
  dayOfWeek: null,
  dayOfMonth: null,
};

/** A project's audit schedule as its columns hold it (read with the project, or with a list that selects it). */
export interface ProjectScheduleColumns {
  auditScheduleFrequency: AuditScheduleFrequency;
  auditScheduleTime: string;
  auditScheduleTimeZone: string;
  auditScheduleDayOfWeek?: number | null;
  auditScheduleDayOfMonth?: number | null;
  auditScheduleChangedAt?: Date | null;
}

/** A schedule as a caller gives it: omitted fields keep the current value, null resets one to its default. */
export type AuditScheduleInput = Partial<Record<keyof AuditSchedule, unknown>>;

/** A BullMQ repeat option: a cron pattern read in an IANA time zone. */
export interface AuditScheduleRepeat {
  pattern: string;
  tz: string;
}

const TIME = /^(\d{1,2}):(\d{2})$/;

/** The IANA name Intl gives a time zone (case and aliases resolved: `europe/berlin` -> Europe/Berlin), or null. */
export function canonicalTimeZone(value: string): string | null {
  if (!value || value.length > 64) return null;
  try {
    const zone = new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
    // Node 24's Intl also takes UTC offsets ("+01:00"), which are no IANA name and keep no daylight-saving rules.
    return /^[+-]/.test(zone) ? null : zone;
  } catch {
    return null;
  }
}

/**
 * `input` over `current`, checked: the schedule to store. Refusals are BAD_USER_INPUT naming the field
 * (`auditSchedule.timeZone`, ...), never a server error.
 */
export function parseAuditSchedule(input: AuditScheduleInput, current: AuditSchedule = DEFAULT_AUDIT_SCHEDULE) {
  const fail = (field: keyof AuditSchedule, message: string) =>
    badInput(`auditSchedule.${field} ${message}`, [{ path: `auditSchedule.${field}`, message }]);
  const pick = <K extends keyof AuditSchedule>(key: K): unknown =>
    input[key] === undefined ? current[key] : input[key] === null ? DEFAULT_AUDIT_SCHEDULE[key] : input[key];

  const frequency = pick('frequency');
  if (!AUDIT_SCHEDULE_FREQUENCIES.includes(frequency as AuditScheduleFrequency))
    throw fail('frequency', `must be one of ${AUDIT_SCHEDULE_FREQUENCIES.join(', ')}`);

  const rawTime = pick('time');
  const match = typeof rawTime === 'string' ? TIME.exec(rawTime.trim()) : null;
  if (!match || Number(match[1]) > 23 || Number(match[2]) > 59) throw fail('time', 'must be a time of day as HH:MM');
  const time = `${match[1].padStart(2, '0')}:${match[2]}`;

  const rawZone = pick('timeZone');
  const timeZone = typeof rawZone === 'string' ? canonicalTimeZone(rawZone.trim()) : null;
  if (!timeZone) throw fail('timeZone', 'must be an IANA time zone name such as Europe/Berlin');

  const dayOfWeek = pick('dayOfWeek');
  if (dayOfWeek !== null && !(Number.isInteger(dayOfWeek) && (dayOfWeek as number) >= 1 && (dayOfWeek as number) <= 7))
    throw fail('dayOfWeek', 'must be an integer from 1 (Monday) to 7 (Sunday)');
  if (frequency === 'WEEKLY' && dayOfWeek === null) throw fail('dayOfWeek', 'is required for a weekly schedule');

  const dayOfMonth = pick('dayOfMonth');
  if (
    dayOfMonth !== null &&
    !(Number.isInteger(dayOfMonth) && (dayOfMonth as number) >= 1 && (dayOfMonth as number) <= 31)
  )
    throw fail('dayOfMonth', 'must be an integer from 1 to 31');
  if (frequency === 'MONTHLY' && dayOfMonth === null) throw fail('dayOfMonth', 'is required for a monthly schedule');

  return {
    frequency: frequency as AuditScheduleFrequency,
    time,
    timeZone,
    dayOfWeek: dayOfWeek as number | null,
    dayOfMonth: dayOfMonth as number | null,
  } satisfies AuditSchedule;
}

/** Whether two schedules fire at the same times (what a stored schedule must be compared on to notice a change). */
export function sameAuditSchedule(a: AuditSchedule, b: AuditSchedule): boolean {
  const pa = auditScheduleRepeat(a);
  const pb = auditScheduleRepeat(b);
  return pa === pb || (pa !== null && pb !== null && pa.pattern === pb.pattern && pa.tz === pb.tz);
}

/**
 * The BullMQ repeat option of a schedule; null when it is OFF. A day of the month of 29 or 30 fires on that day and
 * on the month's last day (`29,L`): isScheduledDay keeps the one that is the schedule's day that month.
 */
export function auditScheduleRepeat(schedule: AuditSchedule): AuditScheduleRepeat | null {
  const [hour, minute] = schedule.time.split(':').map(Number);
  const at = `${minute} ${hour}`;
  switch (schedule.frequency) {
    case 'OFF':
      return null;
    case 'DAILY':
      return { pattern: `${at} * * *`, tz: schedule.timeZone };
    case 'WEEKLY':
      // cron counts Sunday as 0; ISO as 7.
      return { pattern: `${at} * * ${(schedule.dayOfWeek ?? 1) % 7}`, tz: schedule.timeZone };
    case 'MONTHLY': {
      const day = schedule.dayOfMonth ?? 1;
      const days = day <= 28 ? String(day) : day === 31 ? 'L' : `${day},L`;
      return { pattern: `${at} ${days} * *`, tz: schedule.timeZone };
    }
  }
}

/** The calendar date of an instant in a time zone. */
function localDate(millis: number, timeZone: string): { year: number; month: number; day: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
  }).formatToParts(new Date(millis));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: part('year'), month: part('month'), day: part('day') };
}

/** Whether a time the repeat pattern fires at is one of the schedule's days (see auditScheduleRepeat). */
export function isScheduledDay(schedule: AuditSchedule, millis: number): boolean {
  const day = schedule.dayOfMonth ?? 0;
  if (schedule.frequency !== 'MONTHLY' || day <= 28 || day === 31) return true;
  const date = localDate(millis, schedule.timeZone);
  const lastDay = new Date(Date.UTC(date.year, date.month, 0)).getUTCDate();
  return date.day === Math.min(day, lastDay);
}

const sameDate = (a: ReturnType<typeof localDate>, b: ReturnType<typeof localDate>) =>
  a.year === b.year && a.month === b.month && a.day === b.day;

/**
 * Whether a time the pattern fires at is the second occurrence of its wall time that day (clocks went back: 02:30
 * happens twice). cron-parser returns the second one when asked from inside the repeated hour (a job picked up late,
 * a scheduler re-created then); the schedule runs once a day at most, so it is not a run time. A change moves clocks
 * by two hours at most: the first occurrence is within three hours before.
 */
function isRepeatedWallTime(repeat: AuditScheduleRepeat, millis: number): boolean {
  const date = localDate(millis, repeat.tz);
  for (let at = getNextMillis(millis - 3 * 3600_000, repeat); at !== undefined && at < millis;) {
    if (sameDate(localDate(at, repeat.tz), date)) return true;
    at = getNextMillis(at, repeat);
  }
  return false;
}

/** The first run strictly after `after` (ms since the epoch), or null when the schedule is OFF. */
export function nextAuditRunAt(schedule: AuditSchedule, after: number): Date | null {
  const repeat = auditScheduleRepeat(schedule);
  if (!repeat) return null;
  let at = after;
  // At most two firings of `29,L` / `30,L` in a month are not the schedule's day, and one a year is a repeated wall
  // time; a few more steps are a safety margin.
  for (let i = 0; i < 6; i++) {
    const next = getNextMillis(at, repeat);
    if (next === undefined) return null;
    if (isScheduledDay(schedule, next) && !isRepeatedWallTime(repeat, next)) return new Date(next);
    at = next;
  }
  return null;
}

/** Whether `millis` is one of the schedule's run times (a job for any other time is stale). */
export function isAuditScheduleSlot(schedule: AuditSchedule, millis: number): boolean {
  return nextAuditRunAt(schedule, millis - 1)?.getTime() === millis;
}

/** The last run at or before `now`, looking back at most 32 days (one monthly period); null when none. */
export function previousAuditRunAt(schedule: AuditSchedule, now: number): Date | null {
  let last: Date | null = null;
  let next = nextAuditRunAt(schedule, now - 32 * 24 * 3600_000);
  while (next && next.getTime() <= now) {
    last = next;
    next = nextAuditRunAt(schedule, next.getTime());
  }
  return last;
}

/** The schedule its project's columns hold. */
export function auditScheduleOf(columns: ProjectScheduleColumns): AuditSchedule {
  return {
    frequency: columns.auditScheduleFrequency,
    time: columns.auditScheduleTime,
    timeZone: columns.auditScheduleTimeZone,
    dayOfWeek: columns.auditScheduleDayOfWeek ?? null,
    dayOfMonth: columns.auditScheduleDayOfMonth ?? null,
  };
}

/** The columns that hold a schedule set at `changedAt`. */
export function auditScheduleColumns(schedule: AuditSchedule, changedAt: Date | null | undefined) {
  return {
    auditScheduleFrequency: schedule.frequency,
    auditScheduleTime: schedule.time,
    auditScheduleTimeZone: schedule.timeZone,
    auditScheduleDayOfWeek: schedule.dayOfWeek,
    auditScheduleDayOfMonth: schedule.dayOfMonth,
    auditScheduleChangedAt: changedAt ?? null,
  } satisfies ProjectScheduleColumns;
}
