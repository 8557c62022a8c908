import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

/** How many other origins are remembered (and warned about); past it a misrouted flood logs nothing more. */
const MAX_ORIGINS = 20;

/**
 * The origins requests arrive on that are not PUBLIC_URL's (issue 18). Pages the browser goes to are
 * same-origin paths and follow the user; mailed links cannot, and name PUBLIC_URL — a user who reached
 * the server as http://127.0.0.1:8080 while PUBLIC_URL says http://localhost:8080 would get links to
 * another host (where their sign-in cookie is not). Each new such origin is reported once.
 */
export function createOriginWatch(publicUrl: string) {
  const expected = new URL(publicUrl).origin.toLowerCase();
  const seen = new Set<string>();
  return {
    /** Records an origin; true the first time one other than PUBLIC_URL's is seen. */
    record(origin: string): boolean {
      const key = origin.toLowerCase();
      if (key === expected || seen.has(key) || seen.size >= MAX_ORIGINS) return false;
      seen.add(key);
      return true;
    },
    /** The other origins seen so far, oldest first. */
    origins: (): string[] => [...seen],
  };
}

/**
 * Warns at start-up when PUBLIC_URL was not set, and whenever requests first arrive on another origin
 * than PUBLIC_URL's: mailed links (verification, invitations, password resets) would send those people
 * elsewhere.
 */
export function registerPublicOriginWatch(
  app: FastifyInstance,
  options: { publicUrl: string; guessed: boolean; logger: Logger },
): ReturnType<typeof createOriginWatch> {
  const watch = createOriginWatch(options.publicUrl);
  if (options.guessed) {
    options.logger.warn(
      { publicUrl: options.publicUrl },
      `PUBLIC_URL is not set: mailed links name ${options.publicUrl}; set PUBLIC_URL to the address people reach this server at`,
    );
  }
  app.addHook('onRequest', async (request) => {
    const origin = `${request.protocol}://${request.host}`;
    if (watch.record(origin)) {
      request.log.warn(
        { origin, publicUrl: options.publicUrl },
        `requests arrive at ${origin} but PUBLIC_URL is ${options.publicUrl}: mailed links will point to PUBLIC_URL; set it to the address people use`,
      );
    }
  });
  return watch;
}
