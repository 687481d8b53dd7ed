import { describe, expect, it } from 'vitest';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import { DateTimeISO } from '../../../src/platform/graphql-scalars.js';

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
