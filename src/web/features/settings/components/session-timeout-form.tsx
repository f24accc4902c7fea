import { SESSION_TIMEOUT_MINUTES } from '../../../../contract';
import { parseSessionTimeout, SESSION_TIMEOUT_HINT } from '../settings-text';
import { WholeNumberSettingForm } from './whole-number-setting-form';

/** Idle minutes before the server ends a session. */
export function SessionTimeoutForm() {
  return (
    <WholeNumberSettingForm
      setting="sessionTimeoutMinutes"
      id="session-timeout"
      label="Session timeout (minutes)"
      hint={`Staff are signed out after this many minutes without using Clearbase. ${SESSION_TIMEOUT_HINT}`}
      min={SESSION_TIMEOUT_MINUTES.min}
      max={SESSION_TIMEOUT_MINUTES.max}
      parse={parseSessionTimeout}
      errorName="Session timeout"
      testId="session-timeout-form"
      className="pt-4"
    />
  );
}
