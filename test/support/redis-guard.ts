import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { TEST_REDIS_URL, deleteRedisPrefix, scanKeys, testRedis } from './redis-keys.js';

/**
 * The guard of the global setup: the keys of the test Redis database are noted at the start of the run, and at its
 * end a key that was not there then
 * - under a prefix a test file of this run used is a leftover: reported with the file, the run fails (exit code 1),
 *   and the key is deleted;
 * - under any other prefix is reported as a warning only: a test writing outside its own prefix, or another run on
 *   the same database (on a shared database, such as a CI machine's db 0, keys come and go during the run).
 * When TEST_REDIS_URL is not db 0, db 0 is also searched for this run's prefixes (a test ignoring TEST_REDIS_URL).
 * The test files note their prefixes in a ledger file whose path the setup provides (test/setup-redis.ts).
 */
export async function startRedisGuard(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'seo-test-redis-'));
  const ledger = join(dir, 'prefixes.jsonl');
  writeFileSync(ledger, '');
  project.provide('redisPrefixLedger', ledger);
  const redis = testRedis();
  let before: Set<string>;
  try {
    before = new Set(await scanKeys(redis));
  } catch (err) {
    console.warn(`Redis guard off: ${TEST_REDIS_URL} did not answer (${(err as Error).message})`);
    return async () => rmSync(dir, { recursive: true, force: true });
  } finally {
    redis.disconnect();
  }
  return async () => {
    const prefixes = readLedger(ledger);
    rmSync(dir, { recursive: true, force: true });
    const { ours, foreign } = await findLeftovers(before, prefixes);
    if (foreign.length) {
      console.warn(
        [
          `\nRedis keys that appeared in ${TEST_REDIS_URL} during the run under prefixes no test file used`,
          '(a test writing outside its own prefix, or another run sharing the database):',
          ...foreign,
        ].join('\n'),
      );
    }
    if (ours.length) {
      // Thrown, the error would be logged as "error during close" and vitest would still exit 0.
      console.error([`\nRedis keys left behind by this run's test files (now deleted):`, ...ours].join('\n'));
      process.exitCode = 1;
    } else {
      const deleted = [...prefixes.values()].reduce((n, p) => n + p.deleted, 0);
      console.log(`Redis guard: ${prefixes.size} test prefixes, ${deleted} keys deleted after their files, none left.`);
    }
  };
}

interface PrefixUse {
  file: string;
  deleted: number;
}

/** The ledger has a line when a file first uses a prefix and one with the keys deleted after the file. */
function readLedger(path: string): Map<string, PrefixUse> {
  const prefixes = new Map<string, PrefixUse>();
  for (const line of readFileSync(path, 'utf8').split('\n').filter(Boolean)) {
    const { prefix, file, deleted } = JSON.parse(line) as PrefixUse & { prefix: string };
    prefixes.set(prefix, { file, deleted: (prefixes.get(prefix)?.deleted ?? 0) + deleted });
  }
  return prefixes;
}

const sample = (keys: string[]) => `${keys.length} key(s), e.g. ${keys.slice(0, 3).join(', ')}`;

async function findLeftovers(
  before: Set<string>,
  prefixes: Map<string, PrefixUse>,
): Promise<{ ours: string[]; foreign: string[] }> {
  const ours: string[] = [];
  const foreign = new Map<string, string[]>();
  const redis = testRedis();
  try {
    const mine = new Map<string, string[]>();
    for (const key of await scanKeys(redis)) {
      if (before.has(key)) continue;
      const prefix = key.split(':')[0];
      const group = prefixes.has(prefix) ? mine : foreign;
      group.set(prefix, [...(group.get(prefix) ?? []), key]);
    }
    for (const [prefix, keys] of mine) {
      ours.push(`  ${prefixes.get(prefix)!.file} (prefix ${prefix}): ${sample(keys)}`);
      await deleteRedisPrefix(redis, prefix);
    }
  } finally {
    redis.disconnect();
  }
  const db0 = new URL(TEST_REDIS_URL);
  if (Number(db0.pathname.slice(1) || 0) !== 0) {
    db0.pathname = '/0';
    const redis0 = testRedis(db0.toString());
    try {
      for (const [prefix, { file }] of prefixes) {
        const keys = await scanKeys(redis0, `${prefix}:*`);
        if (keys.length) ours.push(`  ${file} (prefix ${prefix}) in db 0, not TEST_REDIS_URL: ${sample(keys)}`);
        if (keys.length) await deleteRedisPrefix(redis0, prefix);
      }
    } catch (err) {
      console.warn(`Redis guard: db 0 not searched (${(err as Error).message})`);
    } finally {
      redis0.disconnect();
    }
  }
  return { ours, foreign: [...foreign].map(([prefix, keys]) => `  ${prefix}: ${sample(keys)}`) };
}
