import type { HealthCheck } from '../../services/health.service';
import type { Antivirus } from './port';

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
