#!/usr/bin/env node
/**
 * The `seo` command (package.json "bin"), usable as `npx seo` right after `npm ci`, before anything is built.
 *
 * It runs the compiled CLI (dist/src/cli.js) when the last server build is newer than every server source, and
 * otherwise the TypeScript sources through tsx (a runtime dependency): never a stale build, and no build step
 * needed to use the CLI. The check walks the source folders' modification times (a few milliseconds).
 * `SEO_CLI_FROM=dist|src` forces one.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import process from 'node:process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist/src/cli.js');
const stamp = join(root, 'dist/.build/server.sha256');
const SOURCE_DIRS = ['src', 'schema', 'facades', 'workers'];
const SKIP = new Set(['node_modules', 'dist', '.git', 'web']);

/** The newest modification time under a folder (the web app is built separately and not part of the CLI). */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

function builtIsFresh() {
  if (!existsSync(built) || !existsSync(stamp)) return false;
  const builtAt = statSync(stamp).mtimeMs;
  return SOURCE_DIRS.every((d) => !existsSync(join(root, d)) || newest(join(root, d)) <= builtAt);
}

const from = process.env.SEO_CLI_FROM ?? (existsSync(join(root, 'src/cli.ts')) && !builtIsFresh() ? 'src' : 'dist');
if (from === 'src') {
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: join(root, 'tsconfig.json') });
  await import(pathToFileURL(join(root, 'src/cli.ts')).href);
} else {
  await import(pathToFileURL(built).href);
}
