import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { asciiOnly, bundleWorkers, importMetaUrlOf } from '../../../src/platform/build/bundle-workers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A miniature dist/: files by path relative to it. */
function fixture(files: Record<string, string>): string {
  const dist = join(mkdtempSync(join(tmpdir(), 'bundle-workers-')), 'dist');
  dirs.push(dirname(dist));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dist, path)), { recursive: true });
    writeFileSync(join(dist, path), text);
  }
  return dist;
}

describe('bundleWorkers', () => {
  it('gives each module its own import.meta.url relative to the bundle', () => {
    expect(importMetaUrlOf('/r/dist/src/crawler/pool.js', '/r/dist/workers/all.worker.js')).toBe(
      'new URL("../src/crawler/pool.js", import.meta.url).href',
    );
  });

  it('bundles a worker entry in place; a module still finds the files beside it', async () => {
    const dist = fixture({
      'workers/x.worker.js': "import { beside } from '../src/m/a.js';\nconsole.log(beside());\n",
      'src/m/a.js':
        "import { readFileSync } from 'node:fs';\n" +
        "export const beside = () => readFileSync(new URL('./data.txt', import.meta.url), 'utf8');\n",
      'src/m/data.txt': 'found beside a.js',
      'workers/not-an-entry.js': 'export {};\n',
    });
    const bundled = await bundleWorkers(dist);
    expect(bundled).toEqual([join(dist, 'workers/x.worker.js')]);
    const entry = readFileSync(join(dist, 'workers/x.worker.js'), 'utf8');
    expect(entry).not.toContain("from '../src/m/a.js'");
    expect(execFileSync(process.execPath, [join(dist, 'workers/x.worker.js')], { encoding: 'utf8' }).trim()).toBe(
      'found beside a.js',
    );
  });

  it('writes pure ASCII: strings, identifiers and regular expressions keep their meaning, comments not', async () => {
    const dist = fixture({
      'workers/z.worker.js':
        "import { greet } from '../src/g.js';\n" +
        'const café = `${greet()} — ١ 😀`;\n' +
        'console.log(JSON.stringify([café, /^[–—]é+$/.test("—éé"), /😀/u.test("😀"),' +
        ' /^😀$/.test("😀"), /[–]/.test("-")]));\n',
      // esbuild keeps a comment in a class body (luxon's JSDoc examples are such comments).
      'src/g.js':
        'class G {\n  /** A comment with é, —, ١ and 😀. */\n' +
        "  hello() { return 'héllo'; }\n}\nexport const greet = () => new G().hello();\n",
    });
    await bundleWorkers(dist);
    const bundle = readFileSync(join(dist, 'workers/z.worker.js'), 'utf8');
    expect(/[\u0080-\u{10ffff}]/u.test(bundle)).toBe(false);
    expect(bundle).toContain('A comment with ?, ?, ? and ??.');
    const out = execFileSync(process.execPath, [join(dist, 'workers/z.worker.js')], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual(['héllo — ١ 😀', true, true, true, false]);
  });

  it('replaces a comment character by as many question marks as its UTF-16 length', () => {
    expect(asciiOnly('a; // éb😀c\nb;')).toBe('a; // ?b??c\nb;');
  });

  it('keeps and reports non-ASCII where neither a comment nor a regular expression holds it', () => {
    const left: [string, number][] = [];
    const raw = 'const s = String.raw`é`; // é';
    expect(asciiOnly(raw, (c, at) => left.push([c, at]))).toBe('const s = String.raw`é`; // ?');
    expect(left).toEqual([['é', 21]]);
  });

  it('fails when a relative require cannot be bundled (it would resolve from dist/workers)', async () => {
    const dist = fixture({
      'workers/y.worker.js': "import { v } from '../src/b.cjs';\nconsole.log(v);\n",
      'src/b.cjs': "let v = 1;\ntry { v = require('./missing.json').v; } catch {}\nmodule.exports = { v };\n",
    });
    await expect(bundleWorkers(dist)).rejects.toThrow(/could not bundle \.\/missing\.json/);
  });
});
