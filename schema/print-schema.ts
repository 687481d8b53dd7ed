import 'reflect-metadata';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { buildDomainSchema } from './build-schema.js';

/** Prints the schema to schema/schema.graphql; with --check, fails when the committed file differs. */
const target = fileURLToPath(new URL('./schema.graphql', import.meta.url));
const printed = `${printSchema(lexicographicSortSchema(await buildDomainSchema()))}\n`;
if (process.argv.includes('--check')) {
  const committed = await readFile(target, 'utf8').catch(() => '');
  if (committed !== printed) {
    console.error('schema/schema.graphql is out of date: run `npm run schema:print` and commit it.');
    process.exit(1);
  }
  console.log('schema/schema.graphql matches the code.');
} else {
  await writeFile(target, printed);
  console.log(`wrote ${target}`);
}
