import type { TServerMessage } from '../../contract';

/** Where services send live events, after their transaction commits. The hub (and, across instances, the database) implements it. */
export type LivePublisher = { publish(message: TServerMessage): void };
