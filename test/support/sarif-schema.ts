import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';

/**
 * The SARIF 2.1.0 JSON schema as Microsoft's SARIF SDK ships it (@microsoft/jest-sarif, a devDependency for this
 * file only; the schema is schemastore's sarif-2.1.0-rtm.5), and a validator of SARIF logs against it.
 */
const require = createRequire(import.meta.url);
const schemaFile = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
export const SARIF_SCHEMA = JSON.parse(readFileSync(schemaFile, 'utf8')) as Record<string, unknown>;

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

/**
 * The schema is draft-04, which ajv 8 reads as draft-07 once its root `id` is `$id`: the only draft-04 keywords whose
 * meaning changed are `id` and the boolean exclusiveMinimum/exclusiveMaximum, and the schema uses neither of the
 * latter (test/unit/seo/ci-gate.test.ts asserts it, so that a schema update that does cannot pass unnoticed). Its
 * patterns are ECMAScript ones without the `u` flag (the `language` pattern has a lone `]`, an error under `u`).
 */
export function sarifValidator() {
  const { id, $schema: _draft04, ...rest } = SARIF_SCHEMA;
  const ajv = addFormats(new Ajv({ allErrors: true, strict: false, unicodeRegExp: false }));
  return ajv.compile({ ...rest, $id: id as string });
}
