import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const noErrorText = [
  {
    selector:
      "CallExpression[callee.property.name='includes'][callee.object.property.name='message']",
    message: 'Branch on error codes, never on error text: messages change, codes do not.',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'coverage/**',
      '.parley-data/**',
      'test-output/**',
      // bench:scale's compiled bench server.
      'packages/server/.bench/**',
      // Generated (npm run codegen).
      'packages/server/src/graphql/resolvers/resolverTypes.generated.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-syntax': ['error', ...noErrorText],
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['packages/*/src/**/*.ts', 'packages/*/src/**/*.tsx'],
    // Declarations of other packages' modules (src/types) say what those export, default or not.
    ignores: ['**/*.test.ts', '**/*.test.tsx', 'packages/*/src/types/**'],
    rules: {
      'no-console': ['error', { allow: ['warn', 'error'] }],
      'no-restricted-syntax': [
        'error',
        ...noErrorText,
        {
          selector: 'ExportDefaultDeclaration',
          message: 'Library packages use named exports only: the package.json exports are the API.',
        },
      ],
    },
  },
  {
    // Command-line entry points print to their terminal.
    files: ['packages/*/src/main.ts', 'packages/*/src/demo.ts', 'packages/*/src/cli/parley.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    // Tests index into what they just built; a wrong guess fails the test loudly anyway.
    files: [
      '**/*.test.ts',
      '**/*.test.tsx',
      '**/__integration-tests__/**',
      '**/testing/**',
      'bench/**',
      'e2e/**',
      'scripts/**',
    ],
    // GraphQL answers in tests are JSON whose shape the query states; `any` is honest there.
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  prettier,
);
