import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'coverage/**', 'test-results/**', 'playwright-report/**', 'screenshots/**', 'tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' }],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/server/**'], message: 'The web app never imports server code; share through src/contract.' }] }],
    },
  },
  {
    files: ['src/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/server/**', '**/web/**', 'node:*'], message: 'The contract depends on zod only.' }] }],
    },
  },
  {
    // Services and pipeline stages talk to ports and repositories, never to a client library or the db client.
    files: ['src/server/services/**/*.ts', 'src/server/pipeline/**/*.ts', 'src/server/intake/**/*.ts', 'src/server/mailbox/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['pg', 'imapflow', 'nodemailer', '@electric-sql/pglite', 'drizzle-orm/node-postgres', 'drizzle-orm/pglite'],
          patterns: [
            { group: ['@aws-sdk/*'], message: 'Use the storage port.' },
            { group: ['**/adapters/*/!(port)'], message: 'Depend on the port, not an implementation.' },
          ],
        },
      ],
    },
  },
  // This file is plain JavaScript outside every tsconfig: lint it without type information.
  { files: ['eslint.config.js'], ...tseslint.configs.disableTypeChecked },
  {
    // Config files and Vitest's global setup are loaded by their tools through a default export.
    files: ['*.config.{ts,js}', 'eslint.config.js', 'tests/support/global-setup.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  // Plain JavaScript entry points (the intake thread's loader bootstrap): linted, without type information.
  {
    files: ['**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { parserOptions: { projectService: false, project: null } },
  },
);
