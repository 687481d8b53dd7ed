import type { CodegenConfig } from '@graphql-codegen/cli';

const scalars = { DateTimeISO: 'string', ID: 'string', JSON: 'unknown' };

/**
 * Typed documents generated from the printed schema: the REST facades' operations, and the web app's
 * (the client preset: one TypedDocumentNode per operation, imported by name so each route's chunk
 * carries only its own documents).
 */
const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  generates: {
    'facades/generated/graphql.ts': {
      documents: ['facades/fragments.graphql', 'facades/v1/**/*.graphql', 'facades/api/**/*.graphql'],
      plugins: ['typescript-operations', 'typed-document-node'],
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        avoidOptionals: { field: true, inputValue: false, object: true, defaultValue: true },
        scalars: { DateTimeISO: 'string', ID: 'string' },
      },
    },
    'facades/web/src/gql/': {
      documents: ['facades/web/src/**/*.graphql'],
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        avoidOptionals: { field: true, inputValue: false, object: true, defaultValue: true },
        scalars,
      },
    },
  },
  hooks: { afterAllFileWrite: [] },
};
export default config;
