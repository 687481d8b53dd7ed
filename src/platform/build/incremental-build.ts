/**
 * Builds the server (tsc) and the web application (vite) only when their inputs changed since the last
 * successful build, so that `npm start` starts in about a second instead of spending 25-40 s in tsc each time.
 *
 *   tsx src/platform/build/incremental-build.ts [server|web|all] [--force]
 *
 * A target's fingerprint is the SHA-256 of every input file's path and content (not mtimes: a checkout or a
 * `touch` does not force a rebuild, an edit always does). It is stored in dist/.build/<target>.sha256 after a
 * successful build; a failed build leaves no stamp, so the next run builds again.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainModule } from '../main-module.js';
import { bundleWorkersSync } from './bundle-workers.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const require = createRequire(import.meta.url);
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git']);

export interface BuildTarget {
  name: 'server' | 'web';
  /** What the progress lines call it: "building server (tsc)…". */
  label: string;
  /** Files and folders (relative to the repository) whose content decides the output. */
  inputs: string[];
  /** Folders under `inputs` that belong to another target. */
  exclude: string[];
  /** A file the build writes: missing means not built, whatever the stamp says. */
  output: string;
  /** Outputs removed before building (stale modules of deleted sources must not linger). */
  clean: string[];
  command(): string[];
  /** Environment of the build; a test runner's NODE_ENV=test must not give the web app React's development build. */
  env?: Record<string, string>;
  /** Runs after a successful build, before the stamp is written. */
  after?(): void;
}

const COMPRESSIBLE = /\.(js|mjs|css|svg|json|html|ttf|txt|map)$/;

/**
 * Writes .br and .gz beside each compressible asset of the web build, which @fastify/static serves to
 * browsers that accept them (preCompressed): 7.7 MB of assets are 2.1 MB in Brotli. Done once per build
 * (~1.6 s) rather than per response. Brotli quality 9: quality 11 took 17 s for 3% less.
 */
export function precompressAssets(dir: string): { files: number; raw: number; brotli: number } {
  let files = 0;
  let raw = 0;
  let brotli = 0;
  for (const name of readdirSync(dir)) {
    if (!COMPRESSIBLE.test(name)) continue;
    const body = readFileSync(join(dir, name));
    if (body.length < 1024) continue;
    const br = brotliCompressSync(body, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
    writeFileSync(join(dir, `${name}.br`), br);
    writeFileSync(join(dir, `${name}.gz`), gzipSync(body, { level: 9 }));
    files += 1;
    raw += body.length;
    brotli += br.length;
  }
  return { files, raw, brotli };
}

const viteBin = () => join(dirname(require.resolve('vite/package.json')), 'bin', 'vite.js');

/**
 * The server's build of the web app (dist/web-ssr/entry-server.js), with which the API process renders signed-in
 * pages: `vite build --ssr` with the same config (its server branch), after the client build.
 */
function buildServerRenderer(): void {
  const args = [
    viteBin(),
    'build',
    '--ssr',
    'src/entry-server.tsx',
    '--config',
    'facades/web/vite.config.ts',
    '--logLevel',
    'warn',
  ];
  const run = spawnSync(process.execPath, args, {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (run.status !== 0) throw new Error(`the server build of the web app failed (exit ${run.status})`);
}

export const TARGETS: Record<BuildTarget['name'], BuildTarget> = {
  server: {
    name: 'server',
    label: 'server (tsc)',
    inputs: ['src', 'schema', 'facades', 'workers', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'],
    exclude: ['facades/web'],
    output: 'dist/src/cli.js',
    clean: ['dist/src', 'dist/schema', 'dist/facades', 'dist/workers'],
    command: () => [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    // The worker entries as one file each: a worker starts in half the time (src/platform/build/bundle-workers.ts).
    after: () => bundleWorkersSync(join(ROOT, 'dist')),
  },
  web: {
    name: 'web',
    label: 'web app (vite)',
    inputs: ['facades/web', 'package-lock.json'],
    exclude: [],
    // The server's build of the app is written last: its file means both are there.
    output: 'dist/web-ssr/entry-server.js',
    clean: [],
    command: () => [viteBin(), 'build', '--config', 'facades/web/vite.config.ts', '--logLevel', 'warn'],
    env: { NODE_ENV: 'production' },
    after: () => {
      precompressAssets(join(ROOT, 'dist', 'web', 'assets'));
      buildServerRenderer();
    },
  },
};

function listFiles(path: string, exclude: readonly string[], out: string[]): void {
  const rel = relative(ROOT, path).split('\\').join('/');
  if (exclude.includes(rel)) return;
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return;
  if (stat.isFile()) {
    out.push(path);
    return;
  }
  if (!stat.isDirectory()) return;
  for (const entry of readdirSync(path)) {
    if (!SKIP_DIRS.has(entry)) listFiles(join(path, entry), exclude, out);
  }
}

/** SHA-256 over the sorted input files' paths and contents. */
export function fingerprint(target: BuildTarget, root = ROOT): string {
  const files: string[] = [];
  for (const input of target.inputs) listFiles(join(root, input), target.exclude, files);
  const hash = createHash('sha256').update(JSON.stringify(target.env ?? {}));
  for (const file of files.sort()) {
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

const stampFile = (target: BuildTarget) => join(ROOT, 'dist', '.build', `${target.name}.sha256`);
/** How long the target's last successful build took, in seconds: the progress line's estimate. */
const durationFile = (target: BuildTarget) => join(ROOT, 'dist', '.build', `${target.name}.seconds`);

/** The line printed when a build starts, so that a long one is not silence. */
export function buildingLine(target: BuildTarget, lastSeconds: number | null, reason: string): string {
  const estimate = lastSeconds === null ? '' : `, about ${lastSeconds.toFixed(0)} s last time`;
  return `building ${target.label}: ${reason}${estimate}…\n`;
}

function lastDuration(target: BuildTarget): number | null {
  const seconds = Number(existsSync(durationFile(target)) ? readFileSync(durationFile(target), 'utf8') : NaN);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : null;
}

/** Builds the target if its inputs changed (or `force`); returns whether it built. Throws when the build fails. */
export function buildIfChanged(target: BuildTarget, force = false): boolean {
  const sum = fingerprint(target);
  const stamp = stampFile(target);
  const current = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : null;
  const built = existsSync(join(ROOT, target.output));
  if (!force && current === sum && built) return false;
  const reason = force ? 'forced' : !built || current === null ? 'first build' : 'sources changed since the last build';
  process.stderr.write(buildingLine(target, lastDuration(target), reason));
  for (const path of target.clean) rmSync(join(ROOT, path), { recursive: true, force: true });
  rmSync(stamp, { force: true });
  const started = Date.now();
  const result = spawnSync(process.execPath, target.command(), {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, ...target.env },
  });
  if (result.status !== 0) throw new Error(`${target.name} build failed (exit code ${result.status ?? result.signal})`);
  target.after?.();
  const seconds = (Date.now() - started) / 1000;
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, `${sum}\n`);
  writeFileSync(durationFile(target), `${seconds.toFixed(1)}\n`);
  process.stderr.write(`built ${target.name} in ${seconds.toFixed(1)} s\n`);
  return true;
}

function main(argv: string[]): void {
  const force = argv.includes('--force');
  const which = argv.find((a) => !a.startsWith('-')) ?? 'all';
  const names = which === 'all' ? (['server', 'web'] as const) : [which];
  for (const name of names) {
    const target = TARGETS[name as BuildTarget['name']];
    if (!target) {
      process.stderr.write(`unknown build target "${name}": use server, web or all\n`);
      process.exit(2);
    }
    if (!buildIfChanged(target, force))
      process.stderr.write(`${target.name} is up to date (inputs unchanged since its last build)\n`);
  }
}

if (isMainModule(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
