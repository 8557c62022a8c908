/** The speech-to-text module's front door: what other modules may use (issue 17; the rest is its own). */

