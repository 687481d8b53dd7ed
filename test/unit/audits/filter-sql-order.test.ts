import { describe, expect, it } from 'vitest';
import { filterSql, URL_FIELDS_BY_KEY, type UrlFilter } from '../../../src/audits/url-table.repository.js';

/**
 * PostgreSQL evaluates the terms of an AND or OR inside an expression in the order written: the filter puts a group's
 * cheap conditions first and the cheap groups first, so that a regular expression runs only on the rows the cheap
 * tests left undecided. The answer is the same in any order (url-table.test.ts checks the rows).
 */
const field = (key: string) => URL_FIELDS_BY_KEY.get(key)!;

function sqlOf(filter: UrlFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = ['audit'];
  const sql = filterSql(filter, (value, type) => `$${params.push(value)}::${type}`)!;
  return { sql, params };
}

describe('filter SQL order', () => {
  it('tests a number before a regex, and a cheap group before a costly one', () => {
    const { sql, params } = sqlOf({
      combinator: 'OR',
      groups: [
        {
          combinator: 'AND',
          conditions: [
            { kind: 'field', field: field('url'), operator: 'regex', values: ['/articles/[0-9]*7-'] },
            { kind: 'field', field: field('words'), operator: 'gt', values: [300] },
          ],
        },
        { combinator: 'AND', conditions: [{ kind: 'issue', code: 'META_TITLE_MISSING', has: true }] },
      ],
    });
    const at = (needle: string) => sql.indexOf(needle);
    expect(at('issue_code_set')).toBeGreaterThan(-1);
    expect(at('issue_code_set')).toBeLessThan(at(' > '));
    expect(at(' > ')).toBeLessThan(at(' ~ '));
    // Parameters are numbered as written: each value still sits at its own placeholder.
    expect(params).toEqual(['audit', 'META_TITLE_MISSING', 300, '/articles/[0-9]*7-']);
  });

  it('keeps the order given between conditions of equal cost', () => {
    const { params } = sqlOf({
      combinator: 'AND',
      groups: [
        {
          combinator: 'AND',
          conditions: [
            { kind: 'field', field: field('words'), operator: 'gt', values: [1] },
            { kind: 'field', field: field('depth'), operator: 'lt', values: [2] },
          ],
        },
      ],
    });
    expect(params).toEqual(['audit', 1, 2]);
  });
});
