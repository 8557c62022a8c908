import { ErrorResponse, type RouteDescriptor } from '@parla/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/** The parsed type of an optional schema slot; `undefined` when the route declares none. */
type Infer<T> = [Exclude<T, undefined>] extends [never]
  ? undefined
  : z.infer<Exclude<T, undefined> & z.ZodType>;

/** What a handler receives: the request parts already validated by the descriptor's schemas. */
export interface RouteInput<D extends RouteDescriptor> {
  body: Infer<D['body']>;
  query: Infer<D['query']>;
  params: Infer<D['params']>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * Registers a route from its contract descriptor (STYLE.md rule 2): the schemas validate input, shape
 * the output and feed OpenAPI; the handler calls one service function and returns the response body.
 */
export function registerRoute<D extends RouteDescriptor>(
  app: FastifyInstance,
  descriptor: D,
  handler: (input: RouteInput<D>) => Promise<z.infer<D['response']>>,
  /**
   * Route-level options: `config` (e.g. `{ rateLimit: { max, timeWindow } }`) and `onRequest`, the auth
   * guard: it runs before the body is parsed and validated (issue 16: a request without a valid key is a
   * 401, never a 400/422 about its body), and before the route's rate limit.
   */
  options: Pick<RouteOptions, 'config' | 'onRequest'> = {},
): void {
  const status = descriptor.successStatus ?? 200;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: descriptor.method,
    url: descriptor.path,
    ...options,
    // A copy per route: plugins add their own hooks to the list (the rate limit pushes onto onRequest),
    // and routes share one options object (`guarded`, `session`).
    ...(Array.isArray(options.onRequest) ? { onRequest: [...options.onRequest] } : {}),
    schema: {
      summary: descriptor.summary,
      tags: [...descriptor.tags],
      ...(descriptor.body ? { body: descriptor.body } : {}),
      ...(descriptor.query ? { querystring: descriptor.query } : {}),
      ...(descriptor.params ? { params: descriptor.params } : {}),
      response: {
        [status]: descriptor.response,
        '4XX': ErrorResponse,
        '5XX': ErrorResponse,
        ...descriptor.otherResponses,
      },
    },
    handler: async (request, reply) => {
      reply.status(status);
      return handler({
        body: request.body as Infer<D['body']>,
        query: request.query as Infer<D['query']>,
        params: request.params as Infer<D['params']>,
        request,
        reply,
      });
    },
  });
}
