import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** True when this module runs from the tsc output (dist/bench), false under tsx. */
export const RUNNING_COMPILED = import.meta.url.endsWith('.js');

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A bench child entry next to this file: the .ts source under tsx, or the compiled .js with plain node. */
export function benchEntry(name: string): { path: string; execArgv: string[] } {
  return RUNNING_COMPILED
    ? { path: fileURLToPath(new URL(`./${name}.js`, import.meta.url)), execArgv: [] }
    : { path: fileURLToPath(new URL(`./${name}.ts`, import.meta.url)), execArgv: ['--import', 'tsx'] };
}

/**
 * Runs one benchmark from the tsc output, as production runs the platform (`npm start` runs dist/). Under tsx
 * every function expression also gets a `__name` call, which is paid per request by code that builds closures
 * per request; both sides of a comparison run the same compiled way.
 */
export async function runCompiled(benchmark: string, log: (line: string) => void): Promise<{ ok: boolean }> {
  const project = fileURLToPath(new URL('./tsconfig.json', import.meta.url));
  log(`compiling the sources and test/bench with tsc -p ${project}`);
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', project], { cwd: ROOT, stdio: 'inherit' });
  const entry = fileURLToPath(new URL('../../dist/bench/test/bench/run.js', import.meta.url));
  const child = spawn(process.execPath, [entry, benchmark], { cwd: ROOT, stdio: 'inherit', env: process.env });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { ok: code === 0 };
}
