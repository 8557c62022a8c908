/**
 * The account module's front door (issue 26 item 1). The account is the top of the graph: it gathers the
 * user document from every module below it, and no module calls it. Its routes are its whole surface.
 */
export {};
