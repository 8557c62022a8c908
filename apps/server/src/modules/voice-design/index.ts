/**
 * The voice-design module's front door (issue 26 item 1). No other module uses voice design yet: its
 * routes are its whole surface. A use case another module needs (a voice designed for an agent) goes here.
 */
export {};
