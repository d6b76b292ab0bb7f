// Lint with type information: the rules that catch real bugs (floating promises above all: an
// unhandled rejection can take the whole process down), not style (Prettier owns that).
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/models/**', '**/node_modules/**', '**/test-results/**', '**/.turbo/**', '**/*.js', '**/*.mjs', '**/*.cjs'],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      // One lint tsconfig per workspace: sources, tests and tool configs (add a new workspace here).
      parserOptions: {
        project: [
          './packages/*/tsconfig.lint.json',
          './apps/*/tsconfig.lint.json',
          './e2e/tsconfig.json',
          './tools/package-check/tsconfig.json',
          './tools/fixtures/tsconfig.json',
          './evaluation/tsconfig.lint.json',
        ],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    // Tests, e2e and benches poke at untyped JSON bodies.
    files: ['**/test/**', 'e2e/**', '**/bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
