import { afterAll, beforeAll, type TestContext } from 'vitest';
import { startDovecot, type StartedDovecot } from '../../scripts/services/start-dovecot';
import { IN_CI } from './test-env';

export type DovecotForFile = {
  /** The running Dovecot, or undefined when it could not start (outside CI only). */
  current: () => StartedDovecot | undefined;
  /** The running Dovecot, or the test is skipped with the reason. */
  running: (context: TestContext) => StartedDovecot;
};

/**
 * A private Dovecot for one test file: started before its tests, stopped after them. Required in CI (CI
 * installs it, and a machine without it fails loudly); elsewhere its tests are skipped, loudly. Call at
 * the top level of the file.
 */
export function useDovecot(tests: string): DovecotForFile {
  let dovecot: StartedDovecot | undefined;
  let notStarted = '';
  beforeAll(async () => {
    try {
      dovecot = await startDovecot();
    } catch (error) {
      notStarted = error instanceof Error ? error.message : String(error);
      if (IN_CI) throw new Error(`Dovecot is required in CI and did not start: ${notStarted}`);
      process.stderr.write(`\n!!! Dovecot did not start (${notStarted}): ${tests} are SKIPPED.\n\n`);
    }
  });
  afterAll(async () => {
    await dovecot?.stop();
  });
  return {
    current: () => dovecot,
    running: (context) => {
      if (!dovecot) return context.skip(`Dovecot did not start: ${notStarted}`);
      return dovecot;
    },
  };
}
