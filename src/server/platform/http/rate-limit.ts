import { AppError } from '../errors';

/**
 * A route's `config.rateLimit`: at most `max` requests per client address per minute, counted by this
 * instance, answered 429 with Retry-After and a sentence naming what was sent too often.
 */
export function perAddressRateLimit(max: number, what: string) {
  return {
    max,
    timeWindow: 60_000,
    errorResponseBuilder: (_request: unknown, context: { ttl: number }) =>
      new AppError('RATE_LIMITED', `Too many ${what} from this address. Try again in ${Math.ceil(context.ttl / 1000)} seconds.`),
  };
}
