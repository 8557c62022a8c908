/** The users module's front door: what other modules may do with the rows everyone reads (issue 26 item 1). */
export {
  createUser,
  deleteUser,
  getUser,
  getUserByEmail,
  requireUser,
  setFirstNameIfEmpty,
  setUserWorkspace,
  updateUser,
} from './users.service';
