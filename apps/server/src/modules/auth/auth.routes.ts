import { refreshSessionRoute, signInRoute, signOutRoute, signUpRoute } from '@parla/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppDeps } from '../../app';
import { registerRoute } from '../../platform/route';
import { type AuthDeps, type IssuedSession, refreshSession, signIn, signOut, signUp } from './auth.service';

/** The refresh cookie: httpOnly, SameSite=Strict, only sent to the auth routes (issue 3 "Tokens"). */
export const REFRESH_COOKIE = 'xi_refresh';
const COOKIE_PATH = '/v1/auth';

/** Sign-up, sign-in, refresh and sign-out; each with its own rate limit per client address. */
export async function authRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const auth: AuthDeps = { db: deps.database.db, clock: deps.clock, signingSecret: deps.auth.signingSecret };
  const secure = deps.config.publicUrl.startsWith('https://');

  const withCookie = (reply: FastifyReply, issued: IssuedSession) => {
    reply.setCookie(REFRESH_COOKIE, issued.refresh.token, {
      httpOnly: true,
      sameSite: 'strict',
      secure,
      path: COOKIE_PATH,
      expires: issued.refresh.expiresAt,
    });
    return issued.session;
  };
  const clearCookie = (reply: FastifyReply) =>
    reply.clearCookie(REFRESH_COOKIE, { httpOnly: true, sameSite: 'strict', secure, path: COOKIE_PATH });

  registerRoute(
    app,
    signUpRoute,
    async ({ body, reply }) =>
      withCookie(
        reply,
        await signUp(auth, { email: body.email, password: body.password, firstName: body.first_name }),
      ),
    { config: { rateLimit: { max: 10, timeWindow: 60 * 60_000 } } },
  );
  registerRoute(app, signInRoute, async ({ body, reply }) => withCookie(reply, await signIn(auth, body)), {
    config: { rateLimit: { max: 10, timeWindow: 5 * 60_000 } },
  });
  registerRoute(
    app,
    refreshSessionRoute,
    async ({ request, reply }) => {
      try {
        return withCookie(reply, await refreshSession(auth, request.cookies[REFRESH_COOKIE]));
      } catch (error) {
        clearCookie(reply);
        throw error;
      }
    },
    { config: { rateLimit: { max: 60, timeWindow: 60_000 } } },
  );
  registerRoute(app, signOutRoute, async ({ request, reply }) => {
    await signOut(auth, request.cookies[REFRESH_COOKIE]);
    clearCookie(reply);
    return { status: 'ok' as const };
  });
}
