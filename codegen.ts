import type { CodegenConfig } from '@graphql-codegen/cli';

/** Typed documents for the REST facades' operations, generated from the printed schema. */
const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  documents: ['facades/fragments.graphql', 'facades/v1/**/*.graphql', 'facades/api/**/*.graphql'],
  generates: {
    'facades/generated/graphql.ts': {
      plugins: ['typescript-operations', 'typed-document-node'],
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        avoidOptionals: { field: true, inputValue: false, object: true, defaultValue: true },
        scalars: { DateTimeISO: 'string', ID: 'string' },
      },
    },
  },
  hooks: { afterAllFileWrite: [] },
};
export default config;
