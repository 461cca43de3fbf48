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
  // An optional property, there exactly when its value is defined, is `optional(key, value)` (or
  // `optionalFrom(key, value, make)`), never the conditional by hand: the selectors take a test that is one comparison with `undefined`, `{}` on
  // its undefined side and one property on the other. Any other test (a flag, an empty string, a count) stays a
  // conditional: it decides something else than a value's absence. infra is outside: it takes only a type from
  // core-client, so `pulumi up` loads none of its code; test/ and bench/ too: the convention is the product's.
  {
    files: ['core-client/src/**/*.ts', 'tui/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          "ConditionalExpression[test.operator='==='][test.right.type='Identifier'][test.right.name='undefined'][consequent.type='ObjectExpression'][consequent.properties.length=0][alternate.type='ObjectExpression'][alternate.properties.length=1]",
          "ConditionalExpression[test.operator='!=='][test.right.type='Identifier'][test.right.name='undefined'][alternate.type='ObjectExpression'][alternate.properties.length=0][consequent.type='ObjectExpression'][consequent.properties.length=1]",
        ].map((selector) => ({
          selector,
          message:
            "An optional property is `optional('key', value)`, or `optionalFrom('key', value, (present) => …)` when made from the value (core-client/src/optional.ts), not `value === undefined ? {} : { key: value }` by hand.",
        })),
      ],
    },
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
