import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layerPlugin } from './eslint-layer-rule.js';

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'facades/generated/**', 'facades/web/src/gql/**', 'coverage/**', 'tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { layers: layerPlugin },
    rules: {
      'layers/layers': 'error',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-unsafe-declaration-merging': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    // BullMQ objects are made by src/platform/queues.ts, which gives each an 'error' listener (BullMQ's
    // production checklist); types may be imported anywhere.
    files: ['src/**', 'schema/**', 'facades/**', 'workers/**'],
    ignores: ['src/platform/queues.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'bullmq',
              importNames: ['Queue', 'Worker', 'QueueEvents', 'FlowProducer'],
              allowTypeImports: true,
              message: 'Create BullMQ objects with createQueue/createWorker (src/platform/queues.ts): they attach the error listener.',
            },
          ],
        },
      ],
    },
  },
  {
    // Type-aware rules (typescript-eslint's project service: each file is checked with the tsconfig.json nearest to
    // it). A promise is awaited, caught or explicitly `void`ed; no promise where a callback must return void; a
    // switch over a union without `default` covers every member; imports used only as types say so (`import()`
    // types stay allowed: they keep a lazily loaded package out of a process that does not use it).
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { disallowTypeAnnotations: false }],
    },
  },
  {
    files: ['test/**'],
    rules: { 'layers/layers': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
