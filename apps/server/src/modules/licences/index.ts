/**
 * The licences module's front door (issue 26 item 1). It serves /licenses from the files written at build
 * time; no module calls it, and its routes are its whole surface.
 */
export {};
