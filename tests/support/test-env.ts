/**
 * What the test harness reads from the environment, in one place (the app's own settings go through
 * src/server/config.ts). In CI a service the tests need must be there: a missing one fails the run.
 */
export const IN_CI = ['true', '1'].includes(process.env.CI ?? '');
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
