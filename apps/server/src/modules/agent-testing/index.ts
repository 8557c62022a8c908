/** The agent-testing module's front door (issue 28): nothing other modules call; its routes are its own. */
export {};
