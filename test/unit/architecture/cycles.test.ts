import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../lint/support.js';

const run = promisify(execFile);
/** `npm run cycles`, as package.json has it, with dpdm from this checkout. */
const CYCLES: string = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { cycles: string } })
  .scripts.cycles;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A tree with the repository's tsconfig (the cycle check resolves `./b.js` to b.ts through it) and `files`. */
function plant(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cycles-'));
  dirs.push(dir);
  copyFileSync(join(ROOT, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** Runs the cycles script in `dir`: its exit code and output. */
async function cycles(dir: string): Promise<{ code: number; output: string }> {
  expect(CYCLES).toMatch(/^dpdm /);
  const command = CYCLES.replace(/^dpdm /, `${join(ROOT, 'node_modules/.bin/dpdm')} `);
  try {
    const { stdout, stderr } = await run('sh', ['-c', command], { cwd: dir });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  }
}

describe('npm run cycles (issue 49: the cycle check sees type-only imports)', () => {
  it('fails on two files that import each other for types only', async () => {
    const dir = plant({
      'src/a.ts': "import type { B } from './b.js';\nexport interface A {\n  b?: B;\n}\n",
      'src/b.ts': "import type { A } from './a.js';\nexport interface B {\n  a?: A;\n}\n",
    });
    const { code, output } = await cycles(dir);
    expect(code).toBe(1);
    expect(output).toMatch(/src\/[ab]\.ts -> src\/[ab]\.ts/);
  }, 60_000);

  it('fails on a ring through a type-only re-export in another folder', async () => {
    const dir = plant({
      'src/one/index.ts': "export type { Two } from '../two/index.js';\nexport interface One {\n  n: number;\n}\n",
      'src/two/index.ts': "import type { One } from '../one/index.js';\nexport interface Two {\n  one: One;\n}\n",
    });
    expect((await cycles(dir)).code).toBe(1);
  }, 60_000);

  it('passes on an acyclic pair', async () => {
    const dir = plant({
      'src/a.ts': "import type { B } from './b.js';\nexport interface A {\n  b?: B;\n}\n",
      'src/b.ts': 'export interface B {\n  n: number;\n}\n',
    });
    const { code, output } = await cycles(dir);
    expect(output).toContain('no circular dependency');
    expect(code).toBe(0);
  }, 60_000);
});
