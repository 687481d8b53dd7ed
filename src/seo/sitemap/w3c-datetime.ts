/**
 * W3C Datetime (https://www.w3.org/TR/NOTE-datetime), the `lastmod` format of the sitemap protocol:
 * YYYY, YYYY-MM, YYYY-MM-DD, or a date with hh:mm, hh:mm:ss or hh:mm:ss.s and a mandatory TZD
 * (Z or ±hh:mm).
 */

const FORMAT = 'not a W3C Datetime (YYYY-MM-DD, optionally with Thh:mm[:ss[.s]] and a time zone)';

/** Latest time zone in use (UTC+14): a bare date can start this much before its UTC midnight. */
const MAX_ZONE_AHEAD_MS = 14 * 3_600_000;

export type W3cDatetimeResult =
  | { ok: true; /** Earliest instant (ms since epoch) the value can denote in any time zone. */ earliest: number }
  | { ok: false; reason: string };

/** Two or four ASCII digits at `at` as a number, or -1. */
function digitsAt(value: string, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const d = value.charCodeAt(i) - 48;
    if (!(d >= 0 && d <= 9)) return -1;
    n = n * 10 + d;
  }
  return n;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Milliseconds since the epoch, by Hinnant's days-from-civil: plain arithmetic, and literal years 0-99. */
function utcMs(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  const days = era * 146_097 + dayOfEra - 719_468;
  return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000;
}

/**
 * Earliest instant `value` can denote, or a reason string when it is not a valid W3C Datetime
 * naming a real date and time. Allocation-free on valid input: it runs once per `lastmod`.
 */
export function w3cDatetimeInstant(value: string): number | string {
  const length = value.length;
  const year = digitsAt(value, 0, 4);
  if (year < 0 || (length !== 4 && value.charCodeAt(4) !== 0x2d)) return FORMAT;
  if (length === 4) return utcMs(year, 1, 1, 0, 0, 0) - MAX_ZONE_AHEAD_MS;
  const month = digitsAt(value, 5, 2);
  if (month < 0 || (length !== 7 && value.charCodeAt(7) !== 0x2d)) return FORMAT;
  if (month < 1 || month > 12) return `month ${value.slice(5, 7)} does not exist`;
  if (length === 7) return utcMs(year, month, 1, 0, 0, 0) - MAX_ZONE_AHEAD_MS;
  const day = digitsAt(value, 8, 2);
  if (day < 0 || (length !== 10 && value.charCodeAt(10) !== 0x54)) return FORMAT;
  if (day < 1 || day > daysInMonth(year, month))
    return `day ${value.slice(8, 10)} does not exist in ${value.slice(0, 7)}`;
  if (length === 10) return utcMs(year, month, day, 0, 0, 0) - MAX_ZONE_AHEAD_MS;

  const hour = digitsAt(value, 11, 2);
  const minute = digitsAt(value, 14, 2);
  if (hour < 0 || minute < 0 || value.charCodeAt(13) !== 0x3a) return FORMAT;
  let at = 16;
  let second = 0;
  let fractionMs = 0;
  if (value.charCodeAt(at) === 0x3a) {
    second = digitsAt(value, 17, 2);
    if (second < 0) return FORMAT;
    at = 19;
    if (value.charCodeAt(at) === 0x2e) {
      let scale = 100;
      const start = ++at;
      for (let d = value.charCodeAt(at) - 48; d >= 0 && d <= 9; d = value.charCodeAt(++at) - 48) {
        fractionMs += d * scale;
        scale /= 10;
      }
      if (at === start) return FORMAT;
    }
  }
  if (hour > 23) return `hour ${value.slice(11, 13)} does not exist`;
  if (minute > 59) return `minute ${value.slice(14, 16)} does not exist`;
  if (second > 59) return `second ${value.slice(17, 19)} does not exist`;

  let offsetMinutes = 0;
  const zone = value.charCodeAt(at);
  if (zone === 0x5a && length === at + 1) {
    // Z: UTC
  } else if ((zone === 0x2b || zone === 0x2d) && length === at + 6 && value.charCodeAt(at + 3) === 0x3a) {
    const zoneHour = digitsAt(value, at + 1, 2);
    const zoneMinute = digitsAt(value, at + 4, 2);
    if (zoneHour < 0 || zoneMinute < 0) return FORMAT;
    if (zoneHour > 23 || zoneMinute > 59) return `time zone ${value.slice(at)} does not exist`;
    offsetMinutes = (zoneHour * 60 + zoneMinute) * (zone === 0x2d ? -1 : 1);
  } else if (at === length) {
    return 'a time must carry a time zone designator (Z or ±hh:mm)';
  } else {
    return FORMAT;
  }
  return utcMs(year, month, day, hour, minute, second) + Math.floor(fractionMs) - offsetMinutes * 60_000;
}

/** Parses a W3C Datetime and checks that it names a real date and time. */
export function parseW3cDatetime(value: string): W3cDatetimeResult {
  const result = w3cDatetimeInstant(value);
  return typeof result === 'number' ? { ok: true, earliest: result } : { ok: false, reason: result };
}

/** True when `value` is a valid W3C Datetime naming a real date (no month 13, no 30 February). */
export function isW3cDatetime(value: string): boolean {
  return typeof w3cDatetimeInstant(value) === 'number';
}
