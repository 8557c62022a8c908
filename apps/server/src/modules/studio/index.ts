/** The studio module's front door: nothing other modules call yet (issue 30; the rest is its own). */
export {};
