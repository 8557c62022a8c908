import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { MAX_FRAME_BYTES } from './socket';

/**
 * WebSockets on the HTTP app (issue 20): `@fastify/websocket` on the same port, so an upgrade passes the
 * request pipeline's hooks (request id, string checks, rate limits) like any request. Frames over
 * MAX_FRAME_BYTES close the socket with 1009; smaller frames a protocol finds too big get its own error.
 * Sockets hold no state outside themselves, so any `--role=api` process behind a load balancer serves them.
 */
export async function registerWebSockets(app: FastifyInstance): Promise<void> {
  await app.register(websocket, {
    options: { maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false },
  });
}

/** A socket route: `GET path` upgraded to a WebSocket, kept out of the OpenAPI document. */
export function socketRoute(
  app: FastifyInstance,
  path: string,
  handler: (socket: WebSocket, request: FastifyRequest) => void,
): void {
  app.get(path, { websocket: true, schema: { hide: true } }, (socket, request) => handler(socket, request));
}
