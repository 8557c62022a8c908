/** The webhooks module's front door: what the process entry uses (issue 17; the rest is its own). */
