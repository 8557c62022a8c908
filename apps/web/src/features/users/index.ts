/** The users feature's front door for other features. */
export { getUserQueryOptions } from './api/get-user';
