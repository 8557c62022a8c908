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
    options: {
      maxPayload: MAX_FRAME_BYTES,
      perMessageDeflate: false,
      // The first subprotocol offered (the conversation socket's `convai`), never a credential offered as
      // one (`bearer.<token>`, el-facts §3): the answer's header would echo the token.
      handleProtocols: (protocols) => [...protocols].find((p) => !p.startsWith('bearer.')) ?? false,
    },
    // The plugin's own handler logs every socket error at error level, a client's 100 MB frame included.
    errorHandler: (error, socket, request) => {
      if (isClientFault(error))
        request.log.warn({ err: error }, 'a socket client sent what the protocol refuses, or dropped');
      else request.log.error({ err: error }, 'a socket failed');
      socket.terminate();
    },
  });
}

/** Connection errors that only say the client went away. */
const DROPPED = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/**
 * Whether a socket error is the client's doing (issue 26 item 9: a warning, not an error): `ws` names what
 * a client sent wrong `WS_ERR_…` (a frame over maxPayload, a bad opcode or close code, invalid UTF-8, an
 * unmasked frame), and a dropped connection is theirs too. Anything else (a handler that threw) is ours.
 */
export function isClientFault(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('WS_ERR_') || DROPPED.has(code));
}

/** A socket route: `GET path` upgraded to a WebSocket, kept out of the OpenAPI document. */
export function socketRoute(
  app: FastifyInstance,
  path: string,
  handler: (socket: WebSocket, request: FastifyRequest) => void,
): void {
  app.get(path, { websocket: true, schema: { hide: true } }, (socket, request) => handler(socket, request));
}
