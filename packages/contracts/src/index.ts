export * from './auth';
export * from './errors';
export * from './health';
export * from './mail';
export * from './routes';
export * from './users';
