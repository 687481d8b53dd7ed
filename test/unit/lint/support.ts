import { ESLint } from 'eslint';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The repository root: snippets are linted as if they were files at a path under it. */
export const ROOT = resolve(import.meta.dirname, '../../..');

// The snippets are linted as files that do not exist: no tsconfig holds them, so the project service (type-aware
// rules) is off for them, with the rules that need it; the rules under test need no types.
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/no-misused-promises': 'off',
      '@typescript-eslint/switch-exhaustiveness-check': 'off',
    },
  },
});

/** The messages one rule gives for `code` linted with the project's configuration as the file `file`. */
export async function lintSnippet(file: string, code: string, ruleId: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(ROOT, file) });
  return result.messages.filter((m) => m.ruleId === ruleId).map((m) => m.message);
}

/** The files under `dir` whose names match `pattern`, leaving out the directories named in `skip`. */
export function sourceFiles(
  dir: string,
  skip: readonly string[] = ['node_modules', 'dist'],
  pattern = /\.(?:ts|tsx|js|mjs)$/,
): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return skip.includes(entry.name) ? [] : sourceFiles(path, skip, pattern);
    return pattern.test(entry.name) ? [path] : [];
  });
}
