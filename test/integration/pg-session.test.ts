import { afterAll, describe, expect, it } from 'vitest';
import { createPlatformPool } from '../../src/platform/db/native-query.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { TEST_DATABASE_URL } from '../test-database.js';

/*
 * Every platform connection runs with JIT off (PG_SESSION_OPTIONS): short reads with inflated jsonb estimates would
 * otherwise spend most of their time compiling. Both pools are read: node-postgres's and the ORM's.
 */
describe('PostgreSQL session settings', () => {
  let t: TestApp | undefined;
  afterAll(async () => t?.close());

  it('the platform pool connects with jit off', async () => {
    const pool = createPlatformPool(TEST_DATABASE_URL, 1);
    try {
      const { rows } = await pool.query<{ jit: string }>('SHOW jit');
      expect(rows[0].jit).toBe('off');
    } finally {
      await pool.end();
    }
  });

  it("the ORM's connections run with jit off", async () => {
    t = await createTestApp();
    const rows = await t.runtime.orm.em.fork().getConnection().execute<{ jit: string }[]>('SHOW jit');
    expect(rows[0].jit).toBe('off');
  });
});
