import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Whether the module whose `import.meta.url` is given is the process's entry (`node <file>`, `tsx <file>`), not a
 * module another one imported: an entry point that can also be imported runs itself only then.
 */
export function isMainModule(moduleUrl: string): boolean {
  return !!process.argv[1] && resolve(process.argv[1]) === fileURLToPath(moduleUrl);
}
