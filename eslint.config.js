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
    files: ['test/**'],
    rules: { 'layers/layers': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
