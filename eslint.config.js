import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layers and their boundaries (ARCHITECTURE.md). Folders are read from the tree, so a new server module,
 * adapter or web feature is bound by the same rules the day it is created.
 */
const ROOT = fileURLToPath(new URL('.', import.meta.url));

const foldersIn = (dir) =>
  readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/** Shared layers of the server; every other folder of src/server is a module of one capability. */
const SERVER_LAYERS = ['platform', 'adapters'];
const SERVER_MODULES = foldersIn('./src/server').filter((name) => !SERVER_LAYERS.includes(name));
const ADAPTERS = foldersIn('./src/server/adapters');
const WEB_FEATURES = foldersIn('./src/web/features');
const COMPOSITION_ROOT = ['src/server/main.ts', 'src/server/app.ts'];

const others = (all, name) => all.filter((other) => other !== name);

const BOUNDARY_ZONES = [
  // Server: a module is reached through its index.ts, never a file inside it.
  ...SERVER_MODULES.flatMap((module) =>
    others(SERVER_MODULES, module).map((other) => ({
      target: `src/server/${module}`,
      from: `src/server/${other}`,
      except: ['./index.ts'],
      message: `Use what the ${other} module exports from its index.ts ('../${other}'), not a file inside it.`,
    })),
  ),
  // Server: adapters only through their ports; the composition root (main.ts) alone picks implementations.
  ...ADAPTERS.map((adapter) => ({
    target: ['src/server/platform', 'src/server/app.ts', ...SERVER_MODULES.map((module) => `src/server/${module}`)],
    from: `src/server/adapters/${adapter}`,
    except: ['./port.ts'],
    message: `Depend on the ${adapter} port (adapters/${adapter}/port.ts); main.ts chooses the implementation.`,
  })),
  // Server: work flows one way. Intake is an entry point (form, form builders, mailbox, the pipeline test) that
  // nothing but the composition root imports; it hands submissions to the pipeline, which only intake and the
  // demo seeder feed, and whose steps call the other modules, never the reverse.
  {
    target: others(SERVER_MODULES, 'intake').map((module) => `src/server/${module}`),
    from: 'src/server/intake',
    message: 'Intake is an entry point that only main.ts and app.ts wire in; move what you need out of it.',
  },
  {
    target: SERVER_MODULES.filter((module) => !['intake', 'pipeline', 'demo'].includes(module)).map((module) => `src/server/${module}`),
    from: 'src/server/pipeline',
    message: 'Only intake hands work to the pipeline; a module the pipeline calls must not call it back.',
  },
  // Server layers: the platform knows no module and no adapter implementation; adapters know no module.
  {
    target: 'src/server/platform',
    from: [...SERVER_MODULES.map((module) => `src/server/${module}`), ...COMPOSITION_ROOT],
    message: 'The platform serves every module and depends on none: pass what it needs in as a parameter.',
  },
  {
    target: 'src/server/adapters',
    from: [...SERVER_MODULES.map((module) => `src/server/${module}`), ...COMPOSITION_ROOT],
    message: 'An adapter implements a port for the modules and depends on none of them.',
  },
  {
    target: SERVER_MODULES.map((module) => `src/server/${module}`),
    from: COMPOSITION_ROOT,
    message: 'Modules are wired together by main.ts and app.ts, and never import them.',
  },
  // Server and web meet only in the contract.
  { target: 'src/server', from: 'src/web', message: 'The server never imports web code; share through src/contract.' },
  { target: 'src/web', from: 'src/server', message: 'The web app never imports server code; share through src/contract.' },
  { target: 'src/contract', from: ['src/server', 'src/web'], message: 'The contract depends on zod only.' },
  // Web: a feature is reached through its index.ts; features never reach into the app shell.
  ...WEB_FEATURES.flatMap((feature) =>
    others(WEB_FEATURES, feature).map((other) => ({
      target: `src/web/features/${feature}`,
      from: `src/web/features/${other}`,
      except: ['./index.ts'],
      message: `Use what the ${other} feature exports from its index.ts ('@/features/${other}'), not a file inside it.`,
    })),
  ),
  ...WEB_FEATURES.map((feature) => ({
    target: 'src/web/app',
    from: `src/web/features/${feature}`,
    except: ['./index.ts'],
    message: `Use what the ${feature} feature exports from its index.ts ('@/features/${feature}').`,
  })),
  { target: 'src/web/features', from: 'src/web/app', message: 'Features never import the app shell; the shell imports features.' },
  {
    target: ['src/web/components', 'src/web/lib'],
    from: ['src/web/features', 'src/web/app'],
    message: 'Shared components and helpers serve every feature and depend on none.',
  },
];

/** Client libraries only adapters and repositories (and the platform's db client) may use. */
const CLIENT_LIBRARIES = ['pg', 'imapflow', 'nodemailer', '@electric-sql/pglite', 'drizzle-orm/node-postgres', 'drizzle-orm/pglite'];

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'coverage/**', 'test-results/**', 'playwright-report/**', 'screenshots/**', 'tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: ROOT },
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
    // Boundaries are judged on resolved files, not on how an import is spelled; an import that does not
    // resolve is an error of its own, so nothing slips past the zones by not being found.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: [`${ROOT}tsconfig.server.json`, `${ROOT}tsconfig.web.json`],
          alwaysTryTypes: true,
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-unresolved': 'error',
      'import-x/no-duplicates': ['error', { 'prefer-inline': true }],
      'import-x/no-restricted-paths': ['error', { basePath: ROOT, zones: BOUNDARY_ZONES }],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['src/contract/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!zod$|\\./)', message: 'The contract depends on zod only.' }] }],
    },
  },
  {
    // Module code talks to ports and repositories; client libraries and SQL stay in adapters, repositories and the platform.
    files: SERVER_MODULES.map((module) => `src/server/${module}/**/*.ts`),
    ignores: ['**/*.test.ts', '**/*.repository.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...CLIENT_LIBRARIES.map((name) => ({ name, message: 'Use a repository or a port.' })),
            { name: 'drizzle-orm', message: "SQL lives in the module's *.repository.ts." },
          ],
          patterns: [
            { group: ['@aws-sdk/*'], message: 'Use the storage port.' },
            { group: ['drizzle-orm/*'], message: "SQL lives in the module's *.repository.ts." },
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
