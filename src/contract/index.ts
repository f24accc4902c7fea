export * from './auth';
export * from './documents';
export * from './domain';
export * from './errors';
export * from './health';
export * from './live';
export * from './mailbox';
