/** The users module's front door: what other modules may use (issue 17; the rest is its own). */
export { requireUser } from './users.service';
export { getUser, getUserByEmail, insertUser, setUserWorkspace, updateUser } from './users.store';
