/**
 * `npm run docs:links` (src/platform/build/check-doc-links.ts): a broken relative link, image or anchor in the
 * documentation fails it with exit code 1 and names the link; good links pass.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { anchorsOf, checkDocLinks, slugOf } from '../../../src/platform/build/check-doc-links.js';

const script = new URL('../../../src/platform/build/check-doc-links.ts', import.meta.url).pathname;
const tsx = new URL('../../../node_modules/.bin/tsx', import.meta.url).pathname;
const roots: string[] = [];

/** A repository of Markdown files in a temporary folder. */
function repo(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'doc-links-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const run = (root: string) => spawnSync(tsx, [script, root], { encoding: 'utf8' });

const GOOD = {
  'README.md': [
    '# Front door',
    '![Dashboard](docs/shots/a.png) and [the manual](docs/README.md), [scores](docs/scores.md#the-seo-cli),',
    '[a folder](docs/shots/), [this page](#front-door), [external](https://example.com/x), [mail](mailto:a@b.c).',
    '```sh',
    'echo [not a link](nowhere.md)',
    '```',
    'Code `[also not](nowhere.md)` is skipped.',
  ].join('\n'),
  'docs/README.md': '# Manual\n\n[Back](../README.md#front-door) · [Scores][s]\n\n[s]: scores.md\n',
  'docs/scores.md': '# Scores\n\n## The `seo` CLI\n\n## Repeat\n\n## Repeat\n\n[second](#repeat-1)\n',
  'docs/shots/a.png': 'png',
};

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('docs:links', () => {
  it('passes documentation whose relative links, images and anchors all resolve', () => {
    const root = repo(GOOD);
    expect(checkDocLinks(root)).toEqual([]);
    const result = run(root);
    expect(result.status, result.stderr).toBe(0);
  });

  it('fails on a broken link, image or anchor and names each one', () => {
    const root = repo({
      ...GOOD,
      'docs/alerts.md': [
        '# Alerts',
        '[missing page](missing.md)',
        '![missing image](shots/none.png)',
        '[missing heading](scores.md#no-such-heading)',
        '[notes beside the project](../../notes/design.md)',
      ].join('\n'),
    });
    expect(checkDocLinks(root).map((b) => [b.file, b.line, b.target])).toEqual([
      ['docs/alerts.md', 2, 'missing.md'],
      ['docs/alerts.md', 3, 'shots/none.png'],
      ['docs/alerts.md', 4, 'scores.md#no-such-heading'],
      ['docs/alerts.md', 5, '../../notes/design.md'],
    ]);
    const result = run(root);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('docs/alerts.md:2: missing.md');
    expect(result.stderr).toContain('docs/alerts.md:5: ../../notes/design.md — points outside the repository');
  });

  it('fails on a broken link in README.md itself', () => {
    const root = repo({ ...GOOD, 'README.md': '# Front door\n\nSee [configuration](docs/configuration.md).\n' });
    expect(checkDocLinks(root)).toMatchObject([{ file: 'README.md', line: 3, target: 'docs/configuration.md' }]);
  });

  it('slugs headings as GitHub does', () => {
    expect(slugOf('The `seo` CLI')).toBe('the-seo-cli');
    expect(slugOf('truth — an audit never says "fine"')).toBe('truth--an-audit-never-says-fine');
    expect(slugOf('Scores compared (calibration row 19)')).toBe('scores-compared-calibration-row-19');
    expect([...anchorsOf('# A\n```\n# not a heading\n```\n## A\n<a id="x"></a>')]).toEqual(['a', 'a-1', 'x']);
  });
});
