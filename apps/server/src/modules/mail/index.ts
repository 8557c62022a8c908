/** The mail module's front door: what other modules (and the app) may use. */
export { outboxKeeper } from './mail.service';
