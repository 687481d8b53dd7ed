/**
 * docs/checks/ is generated from the check definitions (src/checks-catalog/check-docs.ts, checkDocsMarkdown): this
 * fails when a definition changed and `npm run docs:checks` was not run, like schema:check for the schema.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDocsMarkdown } from '../../../src/checks-catalog/check-docs.js';
import { CHECK_CATALOG } from '../../../src/seo/checks/index.js';

const DIR = path.resolve(import.meta.dirname, '../../../docs/checks');
const files = checkDocsMarkdown();

function onDisk(prefix = ''): string[] {
  return readdirSync(path.join(DIR, prefix), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? onDisk(`${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  );
}

describe('docs/checks', () => {
  it('holds exactly the generated files', () => {
    expect(onDisk().sort()).toEqual([...files.keys()].sort());
  });

  it.each([...files.keys()])('%s is up to date (npm run docs:checks)', (file) => {
    expect(readFileSync(path.join(DIR, file), 'utf8')).toBe(files.get(file));
  });

  it('documents every catalog code once, on its family page and in the index', () => {
    const pages = [...files].filter(([file]) => file !== 'README.md').map(([, text]) => text);
    for (const { code, title } of CHECK_CATALOG) {
      expect(
        pages.filter((text) => text.includes(`## ${code}\n`)),
        code,
      ).toHaveLength(1);
      expect(files.get('README.md'), code).toContain(`| [${code}](`);
      expect(pages.join('\n'), code).toContain(title.replaceAll('<', '&lt;'));
    }
  });
});
