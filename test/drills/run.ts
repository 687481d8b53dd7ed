/**
 * Drill entry: `npm run drill -- <name> [--quick]` runs `test/drills/<name>.drill.ts`; `npm run drill` lists them.
 * A drill attacks or breaks a running platform (built API and worker processes, real PostgreSQL and Redis)
 * and prints its figures: a table for people on stderr, one JSON line on stdout. `--quick` is the form .ci/run
 * runs (seconds); the full form is the one whose figures docs/RELIABILITY.md records. Exit code 0 when every
 * expectation of the drill held, 1 otherwise.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Drill } from './drill.js';

const DIR = fileURLToPath(new URL('.', import.meta.url));
const SUFFIX = '.drill.ts';

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const names = args.filter((a) => !a.startsWith('-'));
  const available = readdirSync(DIR)
    .filter((f) => f.endsWith(SUFFIX))
    .map((f) => f.slice(0, -SUFFIX.length))
    .sort();
  if (!names.length || names.some((n) => !available.includes(n))) {
    const unknown = names.filter((n) => !available.includes(n));
    if (unknown.length) console.error(`unknown drill: ${unknown.join(', ')}`);
    console.error('usage: npm run drill -- <name> [--quick]\navailable:');
    for (const name of available) {
      const { drill } = (await import(pathToFileURL(`${DIR}${name}${SUFFIX}`).href)) as { drill: Drill };
      console.error(`  ${name.padEnd(14)} ${drill.description}`);
    }
    return names.length ? 2 : 0;
  }
  let ok = true;
  for (const name of names) {
    const { drill } = (await import(pathToFileURL(`${DIR}${name}${SUFFIX}`).href)) as { drill: Drill };
    const started = Date.now();
    console.error(`[drill:${name}] ${quick ? 'quick' : 'full'} form`);
    const result = await drill.run({ quick, log: (line) => console.error(`[drill:${name}] ${line}`) });
    const seconds = (Date.now() - started) / 1000;
    console.error(`[drill:${name}] ${result.ok ? 'held' : 'FAILED'} in ${seconds.toFixed(1)} s`);
    for (const failure of result.failures) console.error(`[drill:${name}]   ✗ ${failure}`);
    console.log(
      JSON.stringify({
        drill: name,
        quick,
        ok: result.ok,
        seconds,
        figures: result.figures,
        failures: result.failures,
      }),
    );
    ok &&= result.ok;
  }
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
