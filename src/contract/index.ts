export * from './auth';
export * from './domain';
export * from './errors';
export * from './health';
export * from './live';
