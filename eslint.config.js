import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layerPlugin } from './eslint-layer-rule.js';
import { webFeaturesPlugin } from './eslint-web-features-rule.js';

/** Matches an eslint-disable/enable directive comment that names max-lines-per-function, and its reason. */
const LENGTH_DIRECTIVE = /^\s*eslint-(?:disable|enable)(?:-next-line|-line)?\s+([^]*?)(?:--([^]*))?$/;

/**
 * A function may be exempted from max-lines-per-function only as a data table (a generated or table-like function),
 * by a comment at the top of its file that says so: `/* eslint-disable max-lines-per-function -- data table: why *\/`.
 * Any other directive naming the rule (per line, per function, without that reason) is refused.
 */
const functionLengthPlugin = {
  rules: {
    'length-exemption': {
      meta: {
        type: 'problem',
        docs: { description: 'Exempt a function from max-lines-per-function only as a data table, per file' },
        messages: {
          exemption:
            "max-lines-per-function is disabled only file-wide, for a data table: '/* eslint-disable " +
            "max-lines-per-function -- data table: why */'. Split a long hand-written function instead.",
        },
        schema: [],
      },
      create(context) {
        return {
          Program() {
            for (const comment of context.sourceCode.getAllComments()) {
              const directive = LENGTH_DIRECTIVE.exec(comment.value);
              if (!directive || !/\bmax-lines-per-function\b/.test(directive[1])) continue;
              const fileWide = comment.type === 'Block' && /^\s*eslint-disable\s/.test(comment.value);
              if (fileWide && /^\s*data table:\s*\S/.test(directive[2] ?? '')) continue;
              context.report({ loc: comment.loc, messageId: 'exemption' });
            }
          },
        };
      },
    },
  },
};

export default tseslint.config(
  {
    ignores: ['node_modules/**', 'dist/**', 'facades/generated/**', 'facades/web/src/gql/**', 'coverage/**', 'tmp/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { layers: layerPlugin },
    rules: {
      'layers/layers': 'error',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-unsafe-declaration-merging': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
      // Prettier (.prettierrc.json) lays code out in lines of 120 but breaks neither comments nor strings; this holds
      // every line to 120 (long texts are concatenations, long regular expressions `new RegExp(String.raw…)`).
      'max-len': ['error', { code: 120 }],
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
              message:
                'Create BullMQ objects with createQueue/createWorker (src/platform/queues.ts): they attach ' +
                'the error listener.',
            },
          ],
        },
      ],
    },
  },
  {
    // No hand-written function over 150 lines (issue 49): a longer one is split into named steps. Object and array
    // literals of data are not functions, so tables need no exemption; a generated or table-like function is exempted
    // per file with `/* eslint-disable max-lines-per-function -- data table: why */` (function-length/length-exemption
    // refuses any other way). Exempted files today: none.
    files: ['{src,schema,facades,workers}/**/*.{ts,tsx}'],
    plugins: { 'function-length': functionLengthPlugin },
    rules: {
      'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true }],
      'function-length/length-exemption': 'error',
    },
  },
  {
    // Data access (issue 19): a module's *.repository.ts is the only file of the module that speaks SQL or
    // MikroORM; src/platform/db/ holds the connections and the infrastructure statements (ping, migrations).
    // Elsewhere connections are passed through (types), never queried.
    files: ['src/**', 'schema/**', 'facades/**', 'workers/**'],
    ignores: ['**/*.repository.ts', 'src/platform/db/**', 'facades/web/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "ImportDeclaration[importKind='value'][source.value=/(native-query|sql-params)\\.js$/] > " +
            ("ImportSpecifier[importKind='value'][imported.name=/^(nativeQuery|nativeResult|nativeTransaction|" +
              'queryOn|jsonParam)$/]'),
          message:
            "Raw SQL runs in the module's *.repository.ts (nativeQuery/nativeTransaction are its tools); " +
            'import types only here.',
        },
        {
          selector:
            "ImportDeclaration[importKind='value'][source.value=/^@mikro-orm\\//] > " +
            "ImportSpecifier[importKind='value'][imported.name!='defineEntity']",
          message: "MikroORM is spoken in the module's *.repository.ts; import types only here.",
        },
        {
          selector:
            'CallExpression > ' +
            ('MemberExpression.callee[property.name=/^(find|findOne|findOneOrFail|findAll|findAndCount|count|p' +
              'ersist|persistAndFlush|flush|nativeUpdate|nativeDelete|insert|insertMany|upsert|upsertMany|trans' +
              'actional|execute|getConnection|getKnex|createQueryBuilder|getReference|remove|removeAndFlush|que' +
              'ry)$/][object.name=/^(em|tx|orm|pool|db)$/]'),
          message: "Data access belongs in the module's *.repository.ts: call a repository method.",
        },
        {
          selector:
            'CallExpression > ' +
            ('MemberExpression.callee[property.name=/^(find|findOne|findOneOrFail|findAll|findAndCount|count|p' +
              'ersist|persistAndFlush|flush|nativeUpdate|nativeDelete|insert|insertMany|upsert|upsertMany|trans' +
              'actional|execute|getConnection|getKnex|createQueryBuilder|getReference|remove|removeAndFlush)$/]' +
              '[object.property.name=/^(em|orm)$/]'),
          message: "Data access belongs in the module's *.repository.ts: call a repository method.",
        },
      ],
    },
  },
  {
    // The web app (issue 49): features reach each other through their index.ts and never in a cycle
    // (eslint-web-features-rule.js); its components are held to 150 lines by the block above, like every function.
    files: ['facades/web/src/**/*.{ts,tsx}'],
    plugins: { 'web-features': webFeaturesPlugin },
    rules: { 'web-features/features': 'error' },
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
