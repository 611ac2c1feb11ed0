// @ts-check
// `npm run lint` (in the test gate) caches its results in node_modules/.cache/eslint/: a file whose text did not
// change is not linted again, even when a type it uses did. CI lints from a fresh install; `npx eslint .` lints all.
import eslint from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'checkpoints/',
      'coverage/',
      '.tmp/',
      // A user's project, type-checked against the packed package (test/package/consumer.test.ts): it
      // imports `forkpoint` as a user would, which resolves only inside that test's install.
      'test/package/consumer/',
    ],
  },
  eslint.configs.recommended,
  tseslint.configs.strictTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  {
    rules: {
      // Numbers in messages are the norm; anything else in a template still has to be a string.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // `const { id: _id, ...rest } = part` is how a key is left out of a copy.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    files: ['test/**'],
    rules: {
      // `rows[0]!.mode` in a test: were the row missing, the TypeError fails the test, which is the point.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // vitest types its asymmetric matchers (`expect.any(Number)`, `expect.stringMatching(...)`) as `any`.
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
  {
    files: ['test/cli/**'],
    rules: {
      // A CLI test reads the one JSON document a command printed, JSON.parse's `any`: that document's shape is
      // what the test asserts, and a field read wrong fails the test.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Plain JavaScript (scripts, this file) is in no tsconfig: the syntactic rules only, on Node's globals.
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
);
