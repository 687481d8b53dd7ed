import { describe, expect, it } from 'vitest';
import {
  DEFAULT_AUDIT_SCHEDULE,
  auditScheduleRepeat,
  isAuditScheduleSlot,
  nextAuditRunAt,
  parseAuditSchedule,
  previousAuditRunAt,
  type AuditSchedule,
} from '../../../src/projects/index.js';
import { DomainError } from '../../../src/platform/errors.js';

const schedule = (s: Partial<AuditSchedule>): AuditSchedule => ({ ...DEFAULT_AUDIT_SCHEDULE, ...s });

/** The next `n` run times after `from`, as ISO strings in UTC. */
function runs(s: AuditSchedule, from: string, n: number): string[] {
  const out: string[] = [];
  let at = Date.parse(from);
  for (let i = 0; i < n; i++) {
    const next = nextAuditRunAt(s, at);
    if (!next) break;
    out.push(next.toISOString());
    at = next.getTime();
  }
  return out;
}

/** A run time as its time zone's wall clock: `2026-03-29 03:30`. */
const local = (iso: string, timeZone: string) => new Date(iso).toLocaleString('sv-SE', { timeZone }).slice(0, 16);

describe('parseAuditSchedule', () => {
  it('normalizes what it accepts: the time padded, the zone as Intl names it, omitted fields kept', () => {
    expect(parseAuditSchedule({ frequency: 'DAILY', time: '7:05', timeZone: 'europe/berlin' })).toEqual({
      frequency: 'DAILY',
      time: '07:05',
      timeZone: 'Europe/Berlin',
      dayOfWeek: null,
      dayOfMonth: null,
    });
    const weekly = parseAuditSchedule({ frequency: 'WEEKLY', dayOfWeek: 1 }, schedule({ time: '18:00' }));
    expect(weekly).toMatchObject({ frequency: 'WEEKLY', time: '18:00', dayOfWeek: 1, timeZone: 'UTC' });
    // null resets a field to its default; OFF keeps the rest for when it is turned on again.
    expect(parseAuditSchedule({ time: null, frequency: 'OFF' }, weekly)).toMatchObject({
      frequency: 'OFF',
      time: '09:00',
      dayOfWeek: 1,
    });
  });

  it.each([
    [{ frequency: 'HOURLY' }, 'auditSchedule.frequency'],
    [{ frequency: 'DAILY', time: '25:00' }, 'auditSchedule.time'],
    [{ frequency: 'DAILY', time: '12:60' }, 'auditSchedule.time'],
    [{ frequency: 'DAILY', time: 900 }, 'auditSchedule.time'],
    [{ frequency: 'DAILY', timeZone: 'Europe/Atlantis' }, 'auditSchedule.timeZone'],
    [{ frequency: 'DAILY', timeZone: '+01:00' }, 'auditSchedule.timeZone'],
    [{ frequency: 'DAILY', timeZone: 'x'.repeat(65) }, 'auditSchedule.timeZone'],
    [{ frequency: 'WEEKLY' }, 'auditSchedule.dayOfWeek'],
    [{ frequency: 'WEEKLY', dayOfWeek: 0 }, 'auditSchedule.dayOfWeek'],
    [{ frequency: 'WEEKLY', dayOfWeek: 1.5 }, 'auditSchedule.dayOfWeek'],
    [{ frequency: 'MONTHLY' }, 'auditSchedule.dayOfMonth'],
    [{ frequency: 'MONTHLY', dayOfMonth: 32 }, 'auditSchedule.dayOfMonth'],
  ])('refuses %j at %s', (input, path) => {
    let error: unknown;
    try {
      parseAuditSchedule(input);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('BAD_USER_INPUT');
    expect((error as DomainError).details?.[0].path).toBe(path);
  });
});

describe('auditScheduleRepeat', () => {
  it.each([
    [{ frequency: 'OFF' }, null],
    [{ frequency: 'DAILY', time: '07:05' }, '5 7 * * *'],
    [{ frequency: 'WEEKLY', time: '23:59', dayOfWeek: 1 }, '59 23 * * 1'],
    [{ frequency: 'WEEKLY', time: '00:00', dayOfWeek: 7 }, '0 0 * * 0'],
    [{ frequency: 'MONTHLY', time: '09:00', dayOfMonth: 28 }, '0 9 28 * *'],
    [{ frequency: 'MONTHLY', time: '09:00', dayOfMonth: 30 }, '0 9 30,L * *'],
    [{ frequency: 'MONTHLY', time: '09:00', dayOfMonth: 31 }, '0 9 L * *'],
  ] as const)('%j -> %s', (s, pattern) => {
    const repeat = auditScheduleRepeat(schedule({ ...s, timeZone: 'Europe/Berlin' }));
    expect(repeat).toEqual(pattern === null ? null : { pattern, tz: 'Europe/Berlin' });
  });
});

describe('next run times across daylight-saving changes', () => {
  it('Europe/Berlin, daily at 09:00: the same wall time on both sides of each change (23 h and 25 h apart)', () => {
    const s = schedule({ frequency: 'DAILY', time: '09:00', timeZone: 'Europe/Berlin' });
    expect(runs(s, '2026-03-27T12:00:00Z', 3)).toEqual([
      '2026-03-28T08:00:00.000Z',
      '2026-03-29T07:00:00.000Z',
      '2026-03-30T07:00:00.000Z',
    ]);
    expect(runs(s, '2026-10-24T12:00:00Z', 2)).toEqual(['2026-10-25T08:00:00.000Z', '2026-10-26T08:00:00.000Z']);
  });

  it('Europe/Berlin, daily at 02:30: the skipped hour runs at 03:30; the repeated hour runs once', () => {
    const s = schedule({ frequency: 'DAILY', time: '02:30', timeZone: 'Europe/Berlin' });
    const spring = runs(s, '2026-03-28T12:00:00Z', 2);
    expect(spring.map((r) => local(r, 'Europe/Berlin'))).toEqual(['2026-03-29 03:30', '2026-03-30 02:30']);
    const autumn = runs(s, '2026-10-24T12:00:00Z', 2);
    expect(autumn).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
    // 02:30 comes round again at 01:30 UTC that night (winter time): not a run time.
    expect(isAuditScheduleSlot(s, Date.parse('2026-10-25T00:30:00Z'))).toBe(true);
    expect(isAuditScheduleSlot(s, Date.parse('2026-10-25T01:30:00Z'))).toBe(false);
    // Asked from inside the repeated hour (cron alone would answer 01:30 UTC), the next run is the next day's.
    expect(nextAuditRunAt(s, Date.parse('2026-10-25T01:05:00Z'))?.toISOString()).toBe('2026-10-26T01:30:00.000Z');
  });

  it('America/New_York, daily at 09:00 and at 01:30 over the March and November changes', () => {
    const nine = schedule({ frequency: 'DAILY', time: '09:00', timeZone: 'America/New_York' });
    expect(runs(nine, '2026-03-07T00:00:00Z', 2)).toEqual(['2026-03-07T14:00:00.000Z', '2026-03-08T13:00:00.000Z']);
    expect(runs(nine, '2026-10-31T00:00:00Z', 2)).toEqual(['2026-10-31T13:00:00.000Z', '2026-11-01T14:00:00.000Z']);
    const early = schedule({ frequency: 'DAILY', time: '01:30', timeZone: 'America/New_York' });
    expect(runs(early, '2026-10-31T12:00:00Z', 2)).toEqual(['2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z']);
    expect(isAuditScheduleSlot(early, Date.parse('2026-11-01T06:30:00Z'))).toBe(false);
    const skipped = schedule({ frequency: 'DAILY', time: '02:15', timeZone: 'America/New_York' });
    expect(runs(skipped, '2026-03-07T12:00:00Z', 2).map((r) => local(r, 'America/New_York'))).toEqual([
      '2026-03-08 03:15',
      '2026-03-09 02:15',
    ]);
  });

  it('weekly on Mondays in New York keeps 09:00 local across the change (a week of 167 hours)', () => {
    const s = schedule({ frequency: 'WEEKLY', time: '09:00', timeZone: 'America/New_York', dayOfWeek: 1 });
    const [a, b] = runs(s, '2026-03-01T00:00:00Z', 2);
    expect([a, b]).toEqual(['2026-03-02T14:00:00.000Z', '2026-03-09T13:00:00.000Z']);
    expect(Date.parse(b) - Date.parse(a)).toBe(167 * 3600_000);
  });
});

describe('monthly run days', () => {
  const monthly = (dayOfMonth: number) =>
    schedule({ frequency: 'MONTHLY', time: '09:00', timeZone: 'Europe/Berlin', dayOfMonth });
  const days = (dayOfMonth: number, from: string, n: number) =>
    runs(monthly(dayOfMonth), from, n).map((r) => local(r, 'Europe/Berlin').slice(0, 10));

  it('31 is the last day of every month', () => {
    expect(days(31, '2026-01-01T00:00:00Z', 4)).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30']);
  });

  it('30 and 29 run on that day, or on the last day of a shorter February, once a month', () => {
    expect(days(30, '2026-01-01T00:00:00Z', 4)).toEqual(['2026-01-30', '2026-02-28', '2026-03-30', '2026-04-30']);
    expect(days(29, '2026-01-01T00:00:00Z', 3)).toEqual(['2026-01-29', '2026-02-28', '2026-03-29']);
    expect(days(29, '2028-02-01T00:00:00Z', 1)).toEqual(['2028-02-29']);
    expect(days(30, '2028-02-01T00:00:00Z', 1)).toEqual(['2028-02-29']);
    // The last day of a 31-day month also fires the `30,L` pattern: not a run time of the schedule.
    expect(isAuditScheduleSlot(monthly(30), Date.parse('2026-03-31T07:00:00Z'))).toBe(false);
    expect(isAuditScheduleSlot(monthly(30), Date.parse('2026-03-30T07:00:00Z'))).toBe(true);
  });

  it('the last run at or before a time, and none for OFF', () => {
    expect(previousAuditRunAt(monthly(15), Date.parse('2026-05-20T00:00:00Z'))?.toISOString()).toBe(
      '2026-05-15T07:00:00.000Z',
    );
    expect(previousAuditRunAt(monthly(15), Date.parse('2026-05-15T07:00:00Z'))?.toISOString()).toBe(
      '2026-05-15T07:00:00.000Z',
    );
    expect(nextAuditRunAt(DEFAULT_AUDIT_SCHEDULE, Date.now())).toBeNull();
    expect(previousAuditRunAt(DEFAULT_AUDIT_SCHEDULE, Date.now())).toBeNull();
  });
});
