/** The dubbing module's front door: nothing other modules call yet (issue 29; the rest is its own). */
export {};
