export * from './auth';
export * from './errors';
export * from './health';
export * from './mail';
export * from './redirect';
export * from './routes';
export * from './users';
