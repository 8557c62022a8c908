/** The auth feature's front door for other features. */
export { afterSignInPath } from './post-login';
