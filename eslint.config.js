// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { noFailureMessage } from './lint/no-failure-message.ts';

export default tseslint.config(
  { ignores: ['**/node_modules/', '**/dist/', 'coverage/', '.tmp/', 'test/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ['**/*.js'], languageOptions: { globals: globals.node } },
  // The hooks rules read any function named `use…` as a hook: only the terminal app's files have React hooks.
  { files: ['tui/src/**/*.{ts,tsx}', 'test/tui/**/*.{ts,tsx}'], ...reactHooks.configs.flat['recommended-latest'] },
  // A source file past 450 lines holds two jobs: split it along them (issue 26's rule, checked since issue 41). Blank
  // lines and comments count, as `wc -l` counts them.
  {
    files: ['core-client/src/**/*.ts', 'tui/src/**/*.{ts,tsx}', 'infra/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 450, skipBlankLines: false, skipComments: false }] },
  },
  // A face words a failure through describeProblem (a Problem) or describeFailure (any other Error), never by reading its
  // `message`: the rule needs the types, so only the faces' files are parsed with them (issue 41).
  {
    files: ['tui/src/**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { house: { rules: { 'no-failure-message': noFailureMessage } } },
    rules: { 'house/no-failure-message': 'error' },
  },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
    },
  },
);
