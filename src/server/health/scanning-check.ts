import type { TServiceHealth } from '../../contract';
import type { HealthCheck } from './health.service';
import type { Antivirus } from '../adapters/antivirus/port';

/**
 * Reachability and version only. Scanning a test virus here would prove more, but every health poll would then
 * raise a detection in clamd's log and trigger any VirusEvent alerting an operator has set up.
 */
export function antivirusCheck(antivirus: Antivirus): HealthCheck {
  return async () => {
    const { version } = await antivirus.ping();
    // A host and port help whoever reads the status screen; a socket's file path is the server's business.
    const where = antivirus.location.startsWith('unix:') ? 'on its local socket' : `at ${antivirus.location}`;
    return { status: 'ok', message: `ClamAV ${version} ${where}` };
  };
}

/**
 * Antivirus health as System Settings make it: scanning turned off there is a warning whatever clamd's
 * state; turned on without CLAMD_URL it is the not-configured warning; otherwise clamd's own check.
 */
export function scanningHealthCheck(deps: {
  scanningOn: () => Promise<boolean>;
  antivirus: Antivirus | undefined;
  whenOff: HealthCheck;
  whenNotConfigured: HealthCheck;
}): HealthCheck {
  const clamd = deps.antivirus ? antivirusCheck(deps.antivirus) : deps.whenNotConfigured;
  return async () => ((await deps.scanningOn()) ? clamd() : deps.whenOff());
}

/** Documents waiting for a virus scan that failed; `stopped` of them have been failing too long to be retried automatically. */
export type FailedScanCount = { waiting: number; stopped: number };

/** What the antivirus line says about documents waiting for a failed scan, or undefined when there are none. */
export function describeFailedScans({ waiting, stopped }: FailedScanCount): string | undefined {
  if (waiting <= 0) return undefined;
  const documents = waiting === 1 ? '1 document waits' : `${waiting} documents wait`;
  if (stopped <= 0) return `${documents} for a virus scan that failed; ${waiting === 1 ? 'it is' : 'they are'} retried automatically`;
  if (stopped >= waiting) return `${documents} for a virus scan that has failed for a day; press Retry on the Documents screen`;
  return `${documents} for a virus scan that failed; ${stopped} of them failed for a day and ${stopped === 1 ? 'needs' : 'need'} Retry on the Documents screen, the others are retried automatically`;
}

/** What the antivirus line says when clamd does not answer; why it did not (addresses, codes) is for the log. */
export const SCANNER_DID_NOT_ANSWER = 'The virus scanner did not answer. The details are in the server log.';

/**
 * The antivirus check, with the documents waiting for a failed scan in front: any such document makes the line
 * at least a warning, even while clamd answers again (the retries have not caught up yet). With none waiting,
 * the check runs as it is (a failure propagates to the health runner). A count that cannot be read leaves the
 * check's own answer.
 */
export function withFailedScanCount(
  check: HealthCheck,
  count: () => Promise<FailedScanCount>,
  onCheckFailed: (error: unknown) => void,
): HealthCheck {
  return async () => {
    const [own, waiting] = await Promise.all([
      check().then(
        (health): { health: TServiceHealth } | { error: unknown } => ({ health }),
        (error: unknown) => ({ error }),
      ),
      count().catch(() => undefined),
    ]);
    const sentence = waiting && describeFailedScans(waiting);
    if ('error' in own) {
      if (!sentence) throw own.error;
      onCheckFailed(own.error);
      return { status: 'error', message: `${sentence}. ${SCANNER_DID_NOT_ANSWER}` };
    }
    if (!sentence) return own.health;
    return { status: own.health.status === 'error' ? 'error' : 'warning', message: `${sentence}. ${own.health.message}` };
  };
}
