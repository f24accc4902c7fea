import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * Each boundary of eslint.config.js, broken on purpose: the linter must name the broken rule, and the same
 * import made the allowed way must pass. Each snippet is linted in place of the file at `path` (the file on disk is
 * neither read nor written), without type information, which no boundary rule uses. Zones are judged on the file an
 * import resolves to, so the web app's '@/…' spelling and a relative path are the same import to them; the cases
 * spell imports relatively.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

type Case = { boundary: string; path: string; broken: string; rule: string; allowed?: string };

const CASES: Case[] = [
  {
    boundary: 'a server module reaches another only through its index.ts',
    path: 'src/server/reports/reports.service.ts',
    broken: "import { findDocument } from '../documents/documents.repository';",
    rule: 'import-x/no-restricted-paths',
    allowed: "import { findDocument } from '../documents';",
  },
  {
    boundary: 'a module uses an adapter only through its port',
    path: 'src/server/documents/documents.service.ts',
    broken: "import { createS3Storage } from '../adapters/storage/s3-storage';",
    rule: 'import-x/no-restricted-paths',
    allowed: "import type { Storage } from '../adapters/storage/port';",
  },
  {
    boundary: 'nothing but the composition root imports intake',
    path: 'src/server/documents/documents.service.ts',
    broken: "import { stageUpload } from '../intake';",
    rule: 'import-x/no-restricted-paths',
    allowed: "import { resolveSeason } from '../seasons';",
  },
  {
    boundary: 'only intake hands work to the pipeline: a module the pipeline calls never calls it back',
    path: 'src/server/documents/documents.service.ts',
    broken: "import { recordSubmission } from '../pipeline';",
    rule: 'import-x/no-restricted-paths',
    allowed: "import { recordAuditEvent } from '../audit';",
  },
  {
    boundary: 'the platform depends on no module',
    path: 'src/server/platform/errors.ts',
    broken: "import { createUsersService } from '../users';",
    rule: 'import-x/no-restricted-paths',
    allowed: "import { ZApiError } from '../../contract';",
  },
  {
    boundary: 'an adapter depends on no module',
    path: 'src/server/adapters/storage/local-storage.ts',
    broken: "import { findDocument } from '../../documents';",
    rule: 'import-x/no-restricted-paths',
    allowed: "import { AppError } from '../../platform/errors';",
  },
  {
    boundary: 'a module never imports the composition root',
    path: 'src/server/users/users.service.ts',
    broken: "import { buildApp } from '../app';",
    rule: 'import-x/no-restricted-paths',
  },
  {
    boundary: 'module code leaves client libraries to repositories and adapters',
    path: 'src/server/users/users.service.ts',
    broken: "import pg from 'pg';",
    rule: 'no-restricted-imports',
    allowed: "import { listUsers } from './users.repository';",
  },
  {
    boundary: 'module code leaves SQL to its repositories',
    path: 'src/server/backup/backup.ts',
    broken: "import { sql } from 'drizzle-orm';",
    rule: 'no-restricted-imports',
    allowed: "import { storedFiles } from './backup.repository';",
  },
  {
    boundary: 'the server never imports web code',
    path: 'src/server/users/users.service.ts',
    broken: "import { formatDate } from '../../web/lib/format';",
    rule: 'import-x/no-restricted-paths',
  },
  {
    boundary: 'the web app never imports server code',
    path: 'src/web/lib/format.ts',
    broken: "import { loadConfig } from '../../server/platform/config';",
    rule: 'import-x/no-restricted-paths',
    allowed: "import { DOC_TYPES } from '../../contract';",
  },
  {
    boundary: 'the contract depends on zod only',
    path: 'src/contract/users.ts',
    broken: "import { readFileSync } from 'node:fs';",
    rule: 'no-restricted-imports',
    allowed: "import { z } from 'zod';",
  },
  {
    boundary: 'a web feature reaches another only through its index.ts',
    path: 'src/web/features/reports/report-text.ts',
    broken: "import { useSeasons } from '../players/api';",
    rule: 'import-x/no-restricted-paths',
    allowed: "import { PlayersPage } from '../players';",
  },
  {
    boundary: 'the app shell uses a feature only through its index.ts',
    path: 'src/web/app/providers.tsx',
    broken: "import { UsersPage } from '../features/users/components/users-page';",
    rule: 'import-x/no-restricted-paths',
    allowed: "import { UsersPage } from '../features/users';",
  },
  {
    boundary: 'a feature never imports the app shell',
    path: 'src/web/features/users/user-display.ts',
    broken: "import { AppRoutes } from '../../app/routes';",
    rule: 'import-x/no-restricted-paths',
  },
  {
    boundary: 'shared web components depend on no feature',
    path: 'src/web/components/status-tones.ts',
    broken: "import { UsersPage } from '../features/users';",
    rule: 'import-x/no-restricted-paths',
    allowed: "import { cn } from '../lib/utils';",
  },
  {
    boundary: 'an import that does not resolve is an error, so nothing slips past the zones unseen',
    path: 'src/server/users/users.service.ts',
    broken: "import { nothing } from '../documents/no-such-file';",
    rule: 'import-x/no-unresolved',
  },
];

describe('lint boundaries', () => {
  let eslint: ESLint;
  beforeAll(() => {
    eslint = new ESLint({
      cwd: ROOT,
      overrideConfig: [
        {
          files: [...new Set(CASES.map((c) => c.path))],
          ...tseslint.configs.disableTypeChecked,
          languageOptions: { parserOptions: { projectService: false, project: null } },
        },
      ],
    });
  });

  const rulesBroken = async (path: string, code: string): Promise<string[]> => {
    // Used, so that an unused import is not what the linter reports.
    const source = `${code}\nexport const probe = [${(/import (?:type )?\{ (\w+) \}|import (\w+) from/.exec(code) ?? []).slice(1).filter(Boolean).join(', ')}];\n`;
    const [result] = await eslint.lintText(source, { filePath: `${ROOT}/${path}` });
    return (result?.messages ?? []).map((message) => message.ruleId ?? `parse: ${message.message}`);
  };

  it.each(CASES)('$boundary', async ({ path, broken, rule, allowed }) => {
    expect(await rulesBroken(path, broken)).toContain(rule);
    if (allowed !== undefined) expect(await rulesBroken(path, allowed)).not.toContain(rule);
  }, 120_000);
});
