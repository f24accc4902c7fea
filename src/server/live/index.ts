export { createHealthWatch } from './health-watch';
export { createLiveHub, type EndedSessions, type LiveHub } from './hub';
export { createLiveBus } from './live-bus';
export { registerLiveRoutes } from './live.routes';
export { type LivePublisher } from './publisher';
