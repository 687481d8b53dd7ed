import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../src/platform/db/migrations/index.js';
import { MIGRATION_NAMES } from '../../../src/platform/db/migrations/names.js';

describe('migration names', () => {
  it('lists the names of MIGRATIONS, in their order (the API checks readiness with them)', () => {
    expect(MIGRATION_NAMES).toEqual(MIGRATIONS.map((m) => m.name));
  });
});
