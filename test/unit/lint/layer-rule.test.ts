import { describe, expect, it } from 'vitest';
import { lintSnippet } from './support.js';

const layerErrors = (file: string, code: string): Promise<string[]> => lintSnippet(file, code, 'layers/layers');

describe('the layer rule (ARCHITECTURE.md) is enforced by lint', () => {
  it.each([
    ['src/projects/x.ts', "import { a } from '../../schema/build-schema.js';", /src\/ may not import schema/],
    ['src/projects/x.ts', "import { a } from '../../facades/server.js';", /src\/ may not import facades/],
    ['src/platform/x.ts', "import { a } from '../identity/index.js';", /src\/platform may not import a domain module/],
    ['src/projects/x.ts', "import { a } from '../identity/api-key.service.js';", /only through its index\.ts/],
    ['src/seo/x.ts', "import { request } from 'undici';", /pure analysis/],
    ['src/seo/x.ts', "import { a } from '../platform/errors.js';", /pure analysis/],
    [
      'facades/x.ts',
      "import { ProjectService } from '../src/projects/index.js';",
      /facades\/ may import src\/platform only/,
    ],
    ['workers/x.ts', "import { a } from '../facades/server.js';", /workers\/ may not import facades/],
    [
      'facades/web/src/x.ts',
      "import { a } from '../../../src/platform/errors.js';",
      /browser app: it imports only its own files/,
    ],
    [
      'facades/web/src/x.ts',
      "import { a } from '../../generated/graphql.js';",
      /browser app: it imports only its own files/,
    ],
    ['facades/server.ts', "import { a } from './web/src/lib/format.js';", /server code may not import the browser app/],
    [
      'src/reports/report.service.ts',
      "import { a } from '../audits/graphql.js';",
      /only a GraphQL file .* may import src\/audits\/graphql\.ts/,
    ],
    ['workers/x.ts', "import { a } from '../src/audits/graphql.js';", /workers\/ run no GraphQL/],
  ])('%s: %s is refused', async (file, code, message) => {
    const errors = await layerErrors(file, `${code}\nexport const b = a;\n`);
    expect(errors.join('\n')).toMatch(message);
  });

  it.each([
    ['src/projects/x.ts', "import { a } from '../identity/index.js';"],
    ['src/projects/x.ts', "import { a } from '../platform/errors.js';"],
    ['facades/x.ts', "import { a } from '../src/platform/errors.js';"],
    ['facades/x.ts', "import { a } from '../schema/domain-runtime.js';"],
    ['workers/x.ts', "import { a } from '../src/projects/index.js';"],
    ['schema/x.ts', "import { a } from '../src/projects/index.js';"],
    ['schema/x.ts', "import { a } from '../src/projects/graphql.js';"],
    ['src/reports/report.types.ts', "import { a } from '../audits/graphql.js';"],
    ['src/audits/audit.resolver.ts', "import { a } from '../projects/graphql.js';"],
    ['facades/web/src/features/x/y.ts', "import { a } from '../../lib/format';"],
  ])('%s: %s is allowed', async (file, code) => {
    expect(await layerErrors(file, `${code}\nexport const b = a;\n`)).toEqual([]);
  });
});
