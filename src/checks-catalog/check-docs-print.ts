/**
 * Writes docs/checks/ and the catalog table of docs/scores.md from the check definitions (`npm run docs:checks`), or,
 * with --check, fails when the files differ from what the definitions generate (`npm run docs:checks:check`, part of
 * `npm run check`). Either fails when a definition has no scoreReason.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkDocsMarkdown, withScoresCatalogTable } from './check-docs.js';

const DIR = path.resolve(import.meta.dirname, '../../docs/checks');
const SCORES = path.resolve(import.meta.dirname, '../../docs/scores.md');

function existing(dir: string, prefix = ''): string[] {
  let names: string[];
  try {
    names = readdirSync(path.join(dir, prefix), { withFileTypes: true }).map((entry) =>
      entry.isDirectory() ? `${entry.name}/` : entry.name,
    );
  } catch {
    return [];
  }
  return names.flatMap((name) =>
    name.endsWith('/') ? existing(dir, `${prefix}${name}`) : name.endsWith('.md') ? [`${prefix}${name}`] : [],
  );
}

const files = checkDocsMarkdown();
const scores = readFileSync(SCORES, 'utf8');
const scoresGenerated = withScoresCatalogTable(scores);
if (process.argv.includes('--check')) {
  const stale = [...files].filter(([file, text]) => {
    try {
      return readFileSync(path.join(DIR, file), 'utf8') !== text;
    } catch {
      return true;
    }
  });
  const extra = existing(DIR).filter((file) => !files.has(file));
  if (stale.length > 0 || extra.length > 0) {
    console.error(
      `docs/checks is out of date (${[...stale.map(([file]) => file), ...extra].join(', ')}): run npm run docs:checks`,
    );
    process.exit(1);
  }
  if (scoresGenerated !== scores) {
    console.error("docs/scores.md's catalog table is out of date: run npm run docs:checks");
    process.exit(1);
  }
} else {
  if (scoresGenerated !== scores) writeFileSync(SCORES, scoresGenerated);
  for (const file of existing(DIR)) if (!files.has(file)) rmSync(path.join(DIR, file));
  for (const [file, text] of files) {
    mkdirSync(path.dirname(path.join(DIR, file)), { recursive: true });
    writeFileSync(path.join(DIR, file), text);
  }
}
