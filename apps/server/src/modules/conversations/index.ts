/**
 * The conversations module's front door (issue 28): nothing other modules call yet — conversations are
 * opened by their socket and read through their own routes.
 */
export {};
