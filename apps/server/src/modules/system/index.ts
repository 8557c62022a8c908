/** The system module's front door (issue 26 item 1): the server's health as `/health` answers it. */
export { checkHealth } from './system.service';
