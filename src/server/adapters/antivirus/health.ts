import type { HealthCheck } from '../../services/health.service';
import type { Antivirus } from './port';

/**
 * Reachability and version only. Scanning a test virus here would prove more, but every health poll would then
 * raise a detection in clamd's log and trigger any VirusEvent alerting an operator has set up.
 */
export function antivirusCheck(antivirus: Antivirus): HealthCheck {
  return async () => {
    const { version } = await antivirus.ping();
    return { status: 'ok', message: `ClamAV ${version} at ${antivirus.location}` };
  };
}
