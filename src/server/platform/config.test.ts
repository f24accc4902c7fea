import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_DOCS, CONFIG_VARIABLES, ConfigError, loadConfig } from './config';
import { embeddedPostgresUnavailable } from './db/embedded-postgres';

describe('loadConfig', () => {
  it('gives the embedded defaults with nothing set', () => {
    const config = loadConfig({}, '/srv/cb');
    expect(config).toMatchObject({
      port: 5000,
      host: 'localhost',
      dataDir: '/srv/cb/data',
      masterKeyFile: '/srv/cb/data/master.key',
      storage: { driver: 'local', dir: '/srv/cb/data/storage' },
      demo: true,
      idPrefix: 'CB',
      logLevel: 'info',
      password: undefined,
      sessionTimeoutMinutes: 60,
      loginRateLimitPerMinute: 10,
      formWebhookBodyTimeoutMs: 60_000,
      formWebhookRateLimitPerMinute: 120,
    });
  });

  it('selects PostgreSQL and turns demo data off by default when DATABASE_URL is set', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@db:5432/cb' });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@db:5432/cb' });
    expect(config.demo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db/cb', CLEARBASE_DEMO: 'yes' }).demo).toBe(true);
  });

  it('takes the bundled PostgreSQL by default where it can run, else PGlite, saying why', () => {
    const unavailable = embeddedPostgresUnavailable('/srv/cb/data');
    expect(loadConfig({}, '/srv/cb').database).toEqual(
      unavailable === undefined ? { kind: 'embedded-postgres', dir: '/srv/cb/data/postgres' } : { kind: 'pglite', dir: '/srv/cb/data/db', because: unavailable },
    );
  });

  it('keeps PGlite for a data folder that already holds a PGlite database, unless told otherwise', async () => {
    const cwd = await mkdtemp(path.join(tmpdir(), 'clearbase-config-'));
    try {
      await mkdir(path.join(cwd, 'data', 'db'), { recursive: true });
      await writeFile(path.join(cwd, 'data', 'db', 'PG_VERSION'), '17\n');
      expect(loadConfig({}, cwd).database).toEqual({ kind: 'pglite', dir: path.join(cwd, 'data', 'db'), because: 'the data folder holds a PGlite database' });
      expect(loadConfig({ CLEARBASE_EMBEDDED_DATABASE: 'postgres' }, cwd).database).toEqual({ kind: 'embedded-postgres', dir: path.join(cwd, 'data', 'postgres') });
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });

  it('runs the bundled PostgreSQL under the data folder when CLEARBASE_EMBEDDED_DATABASE=postgres, and DATABASE_URL wins over it', () => {
    const config = loadConfig({ CLEARBASE_EMBEDDED_DATABASE: 'postgres' }, '/srv/cb');
    expect(config.database).toEqual({ kind: 'embedded-postgres', dir: '/srv/cb/data/postgres' });
    expect(config.demo).toBe(true);
    expect(loadConfig({ CLEARBASE_EMBEDDED_DATABASE: 'pglite' }, '/srv/cb').database).toEqual({ kind: 'pglite', dir: '/srv/cb/data/db' });
    expect(loadConfig({ CLEARBASE_EMBEDDED_DATABASE: 'postgres', DATABASE_URL: 'postgres://u@db/cb' }).database).toEqual({ kind: 'postgres', url: 'postgres://u@db/cb' });
    expect(() => loadConfig({ CLEARBASE_EMBEDDED_DATABASE: 'sqlite' })).toThrow(/CLEARBASE_EMBEDDED_DATABASE: must be 'pglite' or 'postgres'/);
  });

  it('accepts a master key as hex or base64', () => {
    const hex = 'ab'.repeat(32);
    expect(loadConfig({ CLEARBASE_MASTER_KEY: hex }).masterKey?.toString('hex')).toBe(hex);
    const base64 = Buffer.alloc(32, 7).toString('base64');
    expect(loadConfig({ CLEARBASE_MASTER_KEY: base64 }).masterKey).toEqual(Buffer.alloc(32, 7));
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', CLEARBASE_PASSWORD: '' })).toMatchObject({ port: 5000, password: undefined });
  });

  it('names every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        CLEARBASE_MASTER_KEY: 'short',
        CLEARBASE_ID_PREFIX: 'cb-',
        CLEARBASE_PASSWORD: 'short',
        LOG_LEVEL: 'loud',
        CLEARBASE_DEMO: 'maybe',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'DATABASE_URL', 'CLEARBASE_MASTER_KEY', 'CLEARBASE_ID_PREFIX', 'CLEARBASE_PASSWORD', 'LOG_LEVEL', 'CLEARBASE_DEMO']) {
      expect(problems).toContain(`${name}:`);
    }
    expect((error as ConfigError).message).toMatch(/^Invalid configuration:\n {2}- /);
  });

  it('reads the public address as an origin, and refuses one with a path or another scheme', () => {
    expect(loadConfig({}).publicUrl).toBeUndefined();
    expect(loadConfig({ CLEARBASE_PUBLIC_URL: 'https://docs.myleague.org' }).publicUrl?.origin).toBe('https://docs.myleague.org');
    for (const bad of ['docs.myleague.org', 'ftp://docs.myleague.org', 'https://docs.myleague.org/clearbase', 'https://user@docs.myleague.org']) {
      expect(() => loadConfig({ CLEARBASE_PUBLIC_URL: bad }), bad).toThrow(/CLEARBASE_PUBLIC_URL/);
    }
  });

  it('reads the log format, left to the terminal when unset', () => {
    expect(loadConfig({}).logFormat).toBeUndefined();
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(() => loadConfig({ LOG_FORMAT: 'text' })).toThrow(/LOG_FORMAT: /);
  });

  it('resolves a relative data directory against the working directory', () => {
    expect(loadConfig({ CLEARBASE_DATA_DIR: 'var/cb' }, '/opt/app').dataDir).toBe(path.resolve('/opt/app/var/cb'));
  });
});

describe('configuration documentation', () => {
  it('gives every variable a default and a meaning', () => {
    expect(CONFIG_DOCS.map((d) => d.name)).toEqual(CONFIG_VARIABLES);
    for (const doc of CONFIG_DOCS) {
      expect(doc.default, doc.name).not.toBe('');
      expect(doc.meaning, doc.name).toMatch(/\.$/);
    }
  });

  it('is the README table, row for row: every variable, its default and its meaning, and nothing else', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const lines = readme.split('\n');
    const header = lines.indexOf('| Variable | Default | Meaning |');
    expect(header, 'the configuration table of README.md').toBeGreaterThan(-1);
    const rows: string[] = [];
    for (let i = header + 2; lines[i]?.startsWith('|'); i++) rows.push(lines[i] ?? '');
    expect(rows).toEqual(CONFIG_DOCS.map((doc) => `| \`${doc.name}\` | ${doc.default} | ${doc.meaning} |`));
  });
});

describe('pipeline and storage settings', () => {
  it('defaults to local storage, 20 MB files, 7 years, scanning off', () => {
    expect(loadConfig({}, '/srv')).toMatchObject({
      storage: { driver: 'local', dir: '/srv/data/storage' },
      maxFileBytes: 20 * 1024 * 1024,
      retentionYears: 7,
      clamdUrl: undefined,
      formFileHosts: [],
      formFileAllowHttpLoopback: false,
    });
  });

  it('reads an S3 configuration', () => {
    const config = loadConfig({
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'league-docs',
      S3_ENDPOINT: 'http://127.0.0.1:4569',
      S3_ACCESS_KEY_ID: 'AK',
      S3_SECRET_ACCESS_KEY: 'SK',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(config.storage).toEqual({
      driver: 's3',
      bucket: 'league-docs',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:4569',
      accessKeyId: 'AK',
      secretAccessKey: 'SK',
      forcePathStyle: true,
    });
  });

  it('names what is missing or malformed in the pipeline settings', () => {
    const problems = (() => {
      try {
        loadConfig({ STORAGE_DRIVER: 's3', S3_ACCESS_KEY_ID: 'AK', CLAMD_URL: 'localhost:3310', FORM_FILE_HOSTS: 'https://x.org' });
        return '';
      } catch (error) {
        return (error as ConfigError).problems.join('\n');
      }
    })();
    expect(problems).toContain('S3_BUCKET: is required when STORAGE_DRIVER=s3');
    expect(problems).toContain('S3_SECRET_ACCESS_KEY:');
    expect(problems).toContain('CLAMD_URL: must be tcp://host:port or unix:/path/to/clamd.sock');
    expect(problems).toContain('FORM_FILE_HOSTS:');
  });

  it('accepts clamd over TCP or a unix socket, and a list of file hosts', () => {
    expect(loadConfig({ CLAMD_URL: 'tcp://127.0.0.1:3310' }).clamdUrl).toBe('tcp://127.0.0.1:3310');
    expect(loadConfig({ CLAMD_URL: 'unix:/run/clamav/clamd.ctl' }).clamdUrl).toBe('unix:/run/clamav/clamd.ctl');
    expect(loadConfig({ FORM_FILE_HOSTS: 'Files.Example.org,cdn.example.net' }).formFileHosts).toEqual(['files.example.org', 'cdn.example.net']);
  });
});

describe('mailbox settings', () => {
  it('is off without IMAP_HOST, and fills the port from TLS', () => {
    expect(loadConfig({}, '/srv').imap).toBeUndefined();
    expect(loadConfig({ IMAP_HOST: 'imap.example.org', IMAP_USER: 'in@example.org', IMAP_PASSWORD: 'app-password' }, '/srv').imap).toEqual({
      host: 'imap.example.org',
      port: 993,
      tls: true,
      user: 'in@example.org',
      auth: { kind: 'password', password: 'app-password' },
      mailbox: 'INBOX',
      processedMailbox: null,
      intervalMs: 300_000,
    });
    expect(loadConfig({ IMAP_HOST: 'imap.example.org', IMAP_USER: 'u', IMAP_OAUTH2_TOKEN: 'tok', IMAP_TLS: 'false' }, '/srv').imap).toMatchObject({
      port: 143,
      tls: false,
      auth: { kind: 'oauth2', accessToken: 'tok' },
    });
  });

  it('names what is missing or contradictory', () => {
    expect(() => loadConfig({ IMAP_HOST: 'imap.example.org' }, '/srv')).toThrow(/IMAP_USER: is required when IMAP_HOST is set[\s\S]*IMAP_PASSWORD: IMAP_PASSWORD or IMAP_OAUTH2_TOKEN is required/);
    expect(() => loadConfig({ IMAP_HOST: 'imap.example.org', IMAP_USER: 'u', IMAP_PASSWORD: 'p', IMAP_OAUTH2_TOKEN: 't' }, '/srv')).toThrow(
      /IMAP_OAUTH2_TOKEN: set IMAP_PASSWORD or IMAP_OAUTH2_TOKEN, not both/,
    );
    expect(() => loadConfig({ IMAP_INTERVAL_MS: '500' }, '/srv')).toThrow(/IMAP_INTERVAL_MS/);
  });
});
