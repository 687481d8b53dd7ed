import { describe, expect, it } from 'vitest';
import { ProjectCountRegistry } from '../../../src/projects/index.js';

describe('project count sources', () => {
  it('refuses a source that is not a plain table name (it is spliced into SQL)', () => {
    const registry = new ProjectCountRegistry();
    for (const table of ['audit; DROP TABLE project', 'Audit', '"audit"', 'public.audit', '', '1audit']) {
      expect(() => registry.register('audits', { table })).toThrow(/is not a table name/);
    }
    expect(() => registry.register('audits', { table: 'audit_page' })).not.toThrow();
  });
});
