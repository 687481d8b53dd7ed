import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { webFeaturesPlugin } from '../../../eslint-web-features-rule.js';

/**
 * The web app's feature rule on a planted app (issue 49): each case writes a small facades/web/src tree to a fresh
 * directory and lints one file of it with only this rule on.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function lint(files: Record<string, string>, target: string): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), 'web-features-'));
  dirs.push(root);
  for (const [path, text] of Object.entries(files)) {
    const abs = join(root, 'facades/web/src', path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
  }
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts', '**/*.tsx'],
        languageOptions: { parser: tseslint.parser },
        plugins: { 'web-features': webFeaturesPlugin },
        rules: { 'web-features/features': 'error' },
      },
    ],
  });
  const [result] = await eslint.lintFiles([join(root, 'facades/web/src', target)]);
  return result!.messages.map((m) => m.message);
}

const APP = {
  'features/audits/index.ts': "export { PageList } from './page-list';\n",
  'features/audits/page-list.tsx': 'export const PageList = () => null;\n',
  'features/checks/index.ts': "export { CheckLink } from './check-link';\n",
  'features/checks/check-link.tsx': 'export const CheckLink = () => null;\n',
  'components/section.tsx': 'export const Section = () => null;\n',
};

describe('web feature rule', () => {
  it('passes imports through a feature index, of shared components and inside a feature', async () => {
    const messages = await lint(
      {
        ...APP,
        'features/checks/catalog.tsx':
          "import { PageList } from '../audits';\nimport { Section } from '../../components/section';\n" +
          "import { CheckLink } from './check-link';\nexport const all = [PageList, Section, CheckLink];\n",
      },
      'features/checks/catalog.tsx',
    );
    expect(messages).toEqual([]);
  });

  it('fails a deep import into another feature', async () => {
    const messages = await lint(
      {
        ...APP,
        'features/checks/catalog.tsx':
          "import { PageList } from '../audits/page-list';\nexport const all = [PageList];\n",
      },
      'features/checks/catalog.tsx',
    );
    expect(messages).toEqual(['Web features: reach features/audits only through its index.ts (not page-list)']);
  });

  it('fails a deep import from outside the features, and a shared component importing a feature', async () => {
    const files = {
      ...APP,
      'app/router.tsx': "import { PageList } from '../features/audits/page-list';\nexport const r = PageList;\n",
      'components/bad.tsx': "import { CheckLink } from '../features/checks';\nexport const b = CheckLink;\n",
    };
    expect(await lint(files, 'app/router.tsx')).toEqual([
      'Web features: reach features/audits only through its index.ts (not page-list)',
    ]);
    expect(await lint(files, 'components/bad.tsx')).toEqual([
      'Web features: components/ and lib/ are shared by the features: they may not import features/checks',
    ]);
  });

  it('fails a cycle between features, type-only imports included', async () => {
    const files = {
      ...APP,
      'features/audits/page-list.tsx':
        "import type { CheckLink } from '../checks';\nexport const PageList = (_: typeof CheckLink) => null;\n",
      'features/checks/catalog.tsx': "import { PageList } from '../audits';\nexport const all = [PageList];\n",
    };
    expect(await lint(files, 'features/checks/catalog.tsx')).toEqual([
      'Web features: features import each other in a cycle: checks -> audits -> checks',
    ]);
    expect(await lint(files, 'features/audits/page-list.tsx')).toEqual([
      'Web features: features import each other in a cycle: audits -> checks -> audits',
    ]);
  });
});
