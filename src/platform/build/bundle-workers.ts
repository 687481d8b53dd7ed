/**
 * The worker processes' entry points bundled in place after tsc (`npm start`'s build, `bench audit`): each of
 * dist/workers/*.worker.js becomes one file holding the compiled modules it imports and most packages, so that a
 * worker starts without resolving, reading, lexing and linking ~1,700 modules one by one (~500 of ~850 ms of CPU at
 * start-up, measured with `npm run bench -- audit`, bootMs). The rest of dist/ stays as tsc wrote it: the
 * page-parsing threads, the CLI and the API run from it.
 *
 * - Every bundled module keeps its own `import.meta.url` (rewritten relative to the bundle), so that a file found
 *   next to a module (the page-parsing thread, web-vitals) is found where tsc put it.
 * - Packages that load files beside their own code, native addons and browser drivers stay outside (EXTERNAL) and
 *   are required from node_modules as before; so are the optional drivers no one installs.
 * - The build fails when a relative require could not be bundled: at run time it would resolve from dist/workers.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainModule } from '../main-module.js';
import * as acorn from 'acorn';

/** Left to node_modules at run time (see above); the optional drivers of knex and MikroORM that are not installed. */
export const EXTERNAL = [
  // loads files, threads or native code relative to itself
  'pino',
  'thread-stream',
  'msgpackr-extract',
  'pg-native',
  // the benches' probe (test/bench/worker-probe.ts) times statements on node_modules' pg Client: one copy of it
  'pg',
  // browsers and mail: large, and loaded only when a job needs them
  'playwright-core',
  'chromium-bidi',
  'nodemailer',
  // what a worker never loads (migrations run in `seo migrate`) and optional drivers
  '@mikro-orm/migrations',
  '@mikro-orm/seeder',
  '@mikro-orm/entity-generator',
  '@mikro-orm/cli',
  'better-sqlite3',
  'sqlite3',
  'mysql',
  'mysql2',
  'mariadb',
  'oracledb',
  'tedious',
  'libsql',
  'pg-query-stream',
  '@valkey/valkey-glide',
];

/**
 * CommonJS modules inside the bundle see `require`, `__filename` and `__dirname` of the bundle (an ES module has
 * none): packages use them to require an optional package (msgpackr-extract) or to trim error stacks (ioredis).
 */
const BANNER = [
  "import { createRequire as __seoCreateRequire } from 'node:module';",
  "import { fileURLToPath as __seoFileURLToPath } from 'node:url';",
  'const require = __seoCreateRequire(import.meta.url);',
  'const __filename = __seoFileURLToPath(import.meta.url);',
  "const __dirname = __seoFileURLToPath(new URL('.', import.meta.url));",
].join('\n');

/** `import.meta.url` of a module at `file`, as an expression valid inside a bundle written to `outFile`. */
export function importMetaUrlOf(file: string, outFile: string): string {
  const rel = relative(dirname(outFile), file).split(sep).join('/');
  return `new URL(${JSON.stringify(rel.startsWith('.') ? rel : `./${rel}`)}, import.meta.url).href`;
}

/** Replaces `import.meta.url` in a module's code (not `import.meta.resolve`, which a bundle keeps). */
export function rewriteImportMetaUrl(code: string, file: string, outFile: string): string {
  return code.replace(/\bimport\.meta\.url\b/g, importMetaUrlOf(file, outFile));
}

type Esbuild = typeof import('esbuild');

/** esbuild as tsx (which `npm start` runs the build with) depends on it: no dependency of its own. */
function loadEsbuild(): Esbuild {
  const fromRoot = createRequire(import.meta.url);
  return createRequire(fromRoot.resolve('tsx/package.json'))('esbuild') as Esbuild;
}

/**
 * A bundle's text in ASCII. Why: V8 holds a module's source for as long as the module lives, and holds it with two
 * bytes per character as soon as one character is beyond Latin-1: the luxon JSDoc's Arabic examples made the 9 MB
 * worker bundle an 18.8 MB string in every idle worker. esbuild (charset 'ascii') escapes the non-ASCII characters
 * of strings, templates and identifiers, but not of comments and regular expression literals. Here, found with
 * acorn's tokenizer: a comment's non-ASCII character becomes '?' (as many as its UTF-16 length, so that the source
 * map's columns hold), a regular expression's becomes its \u escape (the same pattern; later columns of that line
 * shift in the source map). Any other (a tagged template's raw text, which an escape would change) is left as it is
 * and reported through `onLeft`: the bundle then still runs, only larger in memory.
 */
export function asciiOnly(text: string, onLeft: (char: string, at: number) => void = () => undefined): string {
  if (!/[\u0080-\u{10ffff}]/u.test(text)) return text;
  const comments: [number, number][] = [];
  const regexps: [number, number, string][] = [];
  for (const token of acorn.tokenizer(text, {
    ecmaVersion: 'latest',
    sourceType: 'module',
    allowHashBang: true,
    onComment: (_block, _text, start, end) => comments.push([start, end]),
  }))
    if (token.type === acorn.tokTypes.regexp)
      regexps.push([token.start, token.end, (token as unknown as { value: { flags: string } }).value.flags]);
  const within = <T extends [number, number, ...unknown[]]>(ranges: T[], at: number) =>
    ranges.find(([start, end]) => start <= at && at < end);
  return text.replace(/[\u0080-\u{10ffff}]/gu, (c: string, at: number) => {
    if (within(comments, at)) return '?'.repeat(c.length);
    const regexp = within(regexps, at);
    // Not in a comment or a regular expression, or escaped there (`\é`, which a \u escape would change): kept.
    if (!regexp || text[at - 1] === '\\') {
      onLeft(c, at);
      return c;
    }
    const hex = (u: number) => `\\u${u.toString(16).padStart(4, '0')}`;
    const cp = c.codePointAt(0)!;
    if (cp <= 0xffff) return hex(cp);
    return /[uv]/.test(regexp[2]) ? `\\u{${cp.toString(16)}}` : hex(c.charCodeAt(0)) + hex(c.charCodeAt(1));
  });
}

/** The worker entries tsc wrote under `distDir`/workers. */
export function workerEntries(distDir: string): string[] {
  const dir = join(distDir, 'workers');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.worker.js'))
    .map((f) => join(dir, f));
}

/** Bundles each worker entry of `distDir` (tsc's output) in place. Returns the entries bundled. */
export async function bundleWorkers(distDir: string): Promise<string[]> {
  const esbuild = loadEsbuild();
  const entries = workerEntries(distDir);
  for (const entry of entries) {
    const outFile = resolve(entry);
    const result = await esbuild.build({
      entryPoints: [outFile],
      outfile: outFile,
      allowOverwrite: true,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: EXTERNAL,
      banner: { js: BANNER },
      metafile: true,
      // A class or function renamed apart from a namesake in another module keeps its name (`Error.name`, logs:
      // bullmq's errors name themselves after their constructor). Not minified: minifying saved ~4 MB of source
      // text per idle worker, but bench audit-ab measured ~10% more CPU per audited page with it, unexplained. A
      // source map maps a stack to the TypeScript sources (node --enable-source-maps).
      keepNames: true,
      // The code's non-ASCII characters escaped (esbuild's default, stated because asciiOnly relies on it).
      charset: 'ascii',
      sourcemap: 'linked',
      sourcesContent: false,
      logLevel: 'error',
      plugins: [
        {
          name: 'module-urls',
          setup(build) {
            // MikroORM reads its version from ../../package.json (its repository's) before ../package.json (its
            // package's); in a bundle the first would resolve from dist/workers to this repository's package.json,
            // and its version check would then refuse the other @mikro-orm packages.
            build.onResolve({ filter: /^\.\.\/\.\.\/package\.json$/ }, (args) =>
              /[\\/]@mikro-orm[\\/]core[\\/]utils$/.test(args.resolveDir)
                ? { path: createRequire(join(args.resolveDir, 'x.js')).resolve('../package.json') }
                : undefined,
            );
            build.onLoad({ filter: /\.(c|m)?js$/ }, (args) => {
              const code = readFileSync(args.path, 'utf8');
              if (!code.includes('import.meta.url')) return undefined;
              return { contents: rewriteImportMetaUrl(code, args.path, outFile), loader: 'js' };
            });
          },
        },
      ],
    });
    const left: string[] = [];
    writeFileSync(
      outFile,
      asciiOnly(readFileSync(outFile, 'utf8'), (c) => left.push(c)),
    );
    if (left.length)
      process.stderr.write(
        `${entry}: ${left.length} non-ASCII characters left (${[...new Set(left)].join(' ')}): ` +
          "V8 holds this bundle's source with two bytes per character\n",
      );
    // The bundle's entry in the metafile (the source map is an output too).
    const [, output] = Object.entries(result.metafile.outputs).find(([file]) => file.endsWith('.js'))!;
    const relativeExternals = output.imports.filter((i) => i.external && /^\.\.?\//.test(i.path)).map((i) => i.path);
    if (relativeExternals.length)
      throw new Error(
        `${entry}: could not bundle ${relativeExternals.join(', ')} (it would resolve from dist/workers)`,
      );
  }
  return entries;
}

/**
 * bundleWorkers for the synchronous build steps (src/platform/build/incremental-build.ts, the audit bench's
 * compile): esbuild runs plugins in its asynchronous API only, so in a child process.
 */
export function bundleWorkersSync(distDir: string): void {
  const self = fileURLToPath(import.meta.url);
  const args = [...(self.endsWith('.ts') ? ['--import', 'tsx'] : []), self, resolve(distDir)];
  const run = spawnSync(process.execPath, args, { stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`bundling the worker entries failed (exit ${run.status})`);
}

if (isMainModule(import.meta.url)) {
  const distDir = process.argv[2];
  if (!distDir) throw new Error('usage: bundle-workers <dist folder>');
  const bundled = await bundleWorkers(distDir);
  process.stderr.write(`bundled ${bundled.length} worker entries\n`);
}
