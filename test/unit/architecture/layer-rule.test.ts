import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintSnippet, ROOT } from '../lint/support.js';

const layerErrors = (file: string, code: string): Promise<string[]> =>
  lintSnippet(file, `${code}\nexport const b = a;\n`, 'layers/layers');

describe('the module order of the layer rule (issue 49: modules in a checked order)', () => {
  it.each([
    // The two upward imports issue 49 found, planted again.
    ['src/crawler/crawl-login.service.ts', "import { a } from '../projects/index.js';", 'crawler', 'projects'],
    ['src/crawler/browser/page-renderer.ts', "import { a } from '../../technical/index.js';", 'crawler', 'technical'],
    // A type-only import is a dependency too.
    ['src/crawler/x.ts', "import type { a } from '../projects/index.js';", 'crawler', 'projects'],
    ['src/projects/x.ts', "export { a } from '../audits/index.js';", 'projects', 'audits'],
    ['src/checks-catalog/x.ts', "const { a } = await import('../audits/index.js');", 'checks-catalog', 'audits'],
    // GraphQL files may import another module's graphql.ts, but not upward either.
    ['src/checks-catalog/x.types.ts', "import { a } from '../audits/graphql.js';", 'checks-catalog', 'audits'],
    ['src/identity/x.ts', "import { a } from '../projects/index.js';", 'identity', 'projects'],
  ])('%s: %s is an upward import', async (file, code, from, to) => {
    const errors = await layerErrors(file, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`upward import: src/${from} may not import src/${to}`);
    // The message names the whole order (MODULE_ORDER in eslint-layer-rule.js).
    expect(errors[0]).toMatch(/\(platform < seo < identity < .* < audits < .* < reports < cli\)/);
  });

  it.each([
    ['src/projects/x.ts', "import { a } from '../crawler/index.js';"],
    ['src/projects/x.ts', "import type { a } from '../identity/index.js';"],
    ['src/audits/x.ts', "import { a } from '../checks-catalog/index.js';"],
    ['src/checks-catalog/x.types.ts', "import { a } from '../projects/graphql.js';"],
    ['src/crawler/browser/x.ts', "import { a } from '../../platform/chromium.js';"],
    ['src/reports/x.ts', "import { a } from '../audits/index.js';"],
    ['src/alerts/x.ts', "import { a } from '../comparison/index.js';"],
  ])('%s: %s goes down the order and is allowed', async (file, code) => {
    expect(await layerErrors(file, code)).toEqual([]);
  });

  it('refuses a module that has no place in the order, on either side of the import', async () => {
    expect(await layerErrors('src/newthing/x.ts', "import { a } from '../projects/index.js';")).toEqual([
      expect.stringContaining('src/newthing has no place in the module order'),
    ]);
    expect(await layerErrors('src/audits/x.ts', "import { a } from '../newthing/index.js';")).toEqual([
      expect.stringContaining('src/newthing has no place in the module order'),
    ]);
  });

  it('places every module of src/ in the order', async () => {
    const modules = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(modules).toContain('crawler');
    for (const module of modules) {
      // An import from audits to each module: refused as upward for some, but never for a module without a place.
      const errors = await layerErrors('src/audits/x.ts', `import { a } from '../${module}/index.js';`);
      expect(errors.join('\n'), module).not.toMatch(/no place in the module order/);
    }
  });
});
