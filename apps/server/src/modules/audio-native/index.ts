/** The audio-native module's front door: nothing other modules call (issue 30; the rest is its own). */
export {};
