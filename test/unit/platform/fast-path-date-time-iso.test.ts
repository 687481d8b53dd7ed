/**
 * The ISO date shortcut (src/platform/fast-path/date-time-iso.ts) against the library path it replaces:
 * Date#toISOString for isoString, graphql-scalars' DateTimeISO.serialize for the scalar.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import { DateTimeISO, isoString } from '../../../src/platform/fast-path/date-time-iso.js';

describe('DateTimeISO', () => {
  it('is graphql-scalars DateTimeISO to clients: same name, description and parsing', () => {
    expect(DateTimeISO.name).toBe(GraphQLDateTimeISO.name);
    expect(DateTimeISO.description).toBe(GraphQLDateTimeISO.description);
    expect(DateTimeISO.parseValue('2026-11-21T10:15:30.250Z')).toEqual(GraphQLDateTimeISO.parseValue('2026-11-21T10:15:30.250Z'));
  });

  it('serializes exactly as the library does, valid dates by the shortcut and anything else by the library', () => {
    const values: unknown[] = [new Date('2026-11-21T10:15:30.250Z'), new Date(0), new Date(8.64e15), '2026-11-21T10:15:30Z', 1_700_000_000_000];
    for (const value of values) expect(DateTimeISO.serialize(value)).toBe(GraphQLDateTimeISO.serialize(value));
    for (const bad of [new Date(Number.NaN), 'not a date', {}]) {
      expect(() => GraphQLDateTimeISO.serialize(bad)).toThrow();
      expect(() => DateTimeISO.serialize(bad)).toThrow();
    }
  });
});

describe('isoString', () => {
  it('is Date#toISOString for every millisecond it formats itself and for those it hands over', () => {
    const edges = [
      0, 1, 999, 1000, 59_999, 86_399_999, 86_400_000, // 1970
      951_782_400_000, 951_868_799_999, 951_868_800_000, // 2000-02-28/29, 2000-03-01 (a leap century)
      4_107_456_000_000, 4_107_542_400_000, // 2100-02-28, 2100-03-01 (no leap day)
      253_402_300_799_999, 253_402_300_800_000, // 9999-12-31T23:59:59.999Z, then year 10000
      -1, -62_198_755_200_000, 8.64e15, -8.64e15, // before 1970, year 0, the ends of the Date range
    ];
    for (const ms of edges) expect(isoString(ms)).toBe(new Date(ms).toISOString());
    const mismatches: number[] = [];
    const check = (ms: number) => {
      if (isoString(ms) !== new Date(ms).toISOString()) mismatches.push(ms);
    };
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let i = 0; i < 200_000; i++) check(Math.floor(random() * 253_402_300_800_000 + random() * 1000) % 253_402_300_800_000);
    // Every day of four centuries (leap rules, month lengths), at a time of day that varies with the day.
    for (let day = 0; day < 146_097; day++) check(day * 86_400_000 + ((day * 7_919_993) % 86_400_000));
    expect(mismatches).toEqual([]);
  });
});

/** The ends of the Date range (±8.64e15 ms), of the range isoString formats itself, and of leap years and days. */
const MAX_MS = 8.64e15;
const FAST_END_MS = 253_402_300_800_000; // 10000-01-01T00:00:00.000Z
const EDGES = [-MAX_MS, -MAX_MS + 1, -62_198_755_200_001, -62_198_755_200_000, -1, 0, 1, FAST_END_MS - 1, FAST_END_MS, MAX_MS - 1, MAX_MS];

/** Milliseconds over the whole Date range, weighted towards what isoString formats itself and towards edges. */
const millis = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: FAST_END_MS - 1 }) },
  { weight: 2, arbitrary: fc.integer({ min: -MAX_MS, max: MAX_MS }) },
  // Near a day boundary of any day (month ends, Feb 29, 1 Mar, 31 Dec, centuries) in the fast range.
  { weight: 2, arbitrary: fc.tuple(fc.integer({ min: 0, max: 2_932_896 }), fc.integer({ min: -1500, max: 1500 })).map(([day, off]) => day * 86_400_000 + off) },
  { weight: 1, arbitrary: fc.constantFrom(...EDGES) },
);

describe('isoString, proven equal to Date#toISOString (fast-check)', () => {
  it('formats every millisecond of the Date range as Date#toISOString does', () => {
    fc.assert(
      fc.property(millis, (ms) => isoString(ms) === new Date(ms).toISOString()),
      { numRuns: 200_000, examples: EDGES.map((ms) => [ms]) },
    );
  });

  it('DateTimeISO.serialize gives the library\'s answer, or its error, for any value', () => {
    const outcome = (fn: () => unknown) => {
      try {
        return { value: fn() };
      } catch (err) {
        return { error: (err as Error).message };
      }
    };
    const values = fc.oneof(
      fc.date({ noInvalidDate: false }),
      millis.map((ms) => new Date(ms)),
      fc.integer({ min: -MAX_MS, max: MAX_MS }),
      fc.string(),
      fc.constantFrom(null, undefined, {}, Number.NaN, '2026-02-29T00:00:00Z', '2024-02-29T12:00:00.123Z'),
    );
    fc.assert(
      fc.property(values, (value) => {
        expect(outcome(() => DateTimeISO.serialize(value))).toEqual(outcome(() => GraphQLDateTimeISO.serialize(value)));
      }),
      { numRuns: 20_000 },
    );
  });
});
