import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
/**
 * Static imports and re-exports: what a module loads when it is evaluated (`import type` and `export type` load
 * nothing; a dynamic `import()` loads when the code that calls it runs, e.g. better-auth in createAuth).
 */
const RUNTIME_IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

/** Every package a source file loads at evaluation, following its relative imports through the sources. */
function packagesLoadedBy(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(RUNTIME_IMPORT)) {
      const spec = m[1];
      if (!spec.startsWith('.')) {
        packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
        continue;
      }
      const base = resolve(dirname(file), spec).replace(/\.js$/, '');
      const target = [`${base}.ts`, `${base}/index.ts`].find((f) => existsSync(f));
      if (!target) throw new Error(`${file}: cannot resolve ${spec}`);
      visit(target);
    }
  };
  visit(resolve(ROOT, entry));
  return packages;
}

describe('what the long-running processes load (npm run bench -- memory)', () => {
  // The GraphQL layer and the HTTP server cost a worker ~5 MB each and do nothing there: workers reach the
  // modules through their index.ts, which exports no resolver or object type (those are in graphql.ts).
  it.each([
    'workers/all.worker.ts',
    'workers/audit.worker.ts',
    'workers/rank.worker.ts',
    'workers/competitor.worker.ts',
  ])('%s loads no GraphQL, HTTP server or auth library', (entry) => {
    const loaded = packagesLoadedBy(entry);
    expect(loaded).toContain('bullmq'); // the walk does reach the worker's code
    for (const pkg of ['type-graphql', 'graphql', 'graphql-scalars', '@apollo/server', 'fastify', 'better-auth'])
      expect(loaded, pkg).not.toContain(pkg);
  });

  // The supervisor of `seo start` stays up beside its children: it validates no configuration (zod) and loads
  // no decorator metadata; the commands that need them import them when they run.
  it('the CLI loads no configuration schema, ORM or GraphQL before a command runs', () => {
    const loaded = packagesLoadedBy('src/cli.ts');
    expect(loaded).toContain('commander');
    for (const pkg of ['zod', 'reflect-metadata', '@mikro-orm/core', 'type-graphql', 'pg', 'bullmq'])
      expect(loaded, pkg).not.toContain(pkg);
  });
});
