import {
  HEALTH_SERVICE_LABELS,
  HEALTH_SERVICES,
  type THealth,
  type THealthServiceName,
  type TServerMessage,
  type TServiceHealth,
} from '../../contract';
import type { Logger } from '../platform/logger';
import type { LivePublisher } from './publisher';

export type HealthWatch = {
  start(): void;
  /** Resolves once a poll in flight has finished, so nothing is published after it. */
  stop(): Promise<void>;
};

export type HealthWatchOptions = {
  check: () => Promise<THealth>;
  live: LivePublisher;
  intervalMs: number;
  log: Logger;
};

/**
 * Polls health and announces each service whose status changed since the previous poll. The first poll only
 * sets the baseline: a restart must not repeat warnings everyone has already seen. Polls never overlap: the
 * next is scheduled when the last has finished, however slow the checks are.
 */
export function createHealthWatch({ check, live, intervalMs, log }: HealthWatchOptions): HealthWatch {
  let previous: THealth['services'] | undefined;
  let running = false;
  // Bumped by stop(): a poll from before a stop/start pair must not schedule a second loop.
  let generation = 0;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;

  const poll = async (ownGeneration: number) => {
    let health: THealth;
    try {
      health = await check();
    } catch (error) {
      // Keep the last known statuses: a glitch in the check itself is not a change in any service.
      log.warn({ err: error }, 'health watch: the health check failed');
      return;
    }
    if (ownGeneration !== generation) return;
    if (previous) {
      for (const name of HEALTH_SERVICES) {
        const now = health.services[name];
        if (now.status === previous[name].status) continue;
        try {
          live.publish(statusChangeMessage(name, now));
        } catch (error) {
          log.warn({ err: error, service: name }, 'health watch: could not publish a status change');
        }
      }
    }
    previous = health.services;
  };

  const runPoll = () => {
    const ownGeneration = generation;
    const current = poll(ownGeneration).finally(() => {
      if (inFlight === current) inFlight = undefined;
      if (ownGeneration !== generation) return;
      timer = setTimeout(runPoll, intervalMs);
      // Shutdown is stop()'s job; the watch alone must not keep the process running.
      timer.unref();
    });
    inFlight = current;
  };

  return {
    start() {
      if (running) return;
      running = true;
      runPoll();
    },
    async stop() {
      running = false;
      generation += 1;
      clearTimeout(timer);
      timer = undefined;
      await inFlight;
    },
  };
}

/** e.g. 'Antivirus: error — clamd at 127.0.0.1:3310 is not reachable', or 'Antivirus is operational again'. */
export function statusChangeMessage(name: THealthServiceName, health: TServiceHealth): TServerMessage {
  const label = HEALTH_SERVICE_LABELS[name];
  if (health.status === 'ok') return { type: 'system_status', data: { level: 'info', message: `${label} is operational again` } };
  return { type: 'system_status', data: { level: health.status, message: `${label}: ${health.status} — ${health.message}` } };
}
