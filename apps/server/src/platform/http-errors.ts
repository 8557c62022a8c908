import { type ErrorResponse, emailActionMessages, type ValidationIssue } from '@parla/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from './errors';

/** Fastify's own request errors, by code, as the API's codes and sentences. */
const fastifyErrors: Record<string, { code: string; status: number; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    code: 'malformed_request',
    status: 400,
    message: 'The request body is not valid JSON.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'malformed_request',
    status: 400,
    message: 'The request body is empty but the content type says JSON.',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    status: 415,
    message: 'This content type is not accepted here.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'malformed_request',
    status: 400,
    message: 'The Content-Length header does not match the body.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: 'payload_too_large',
    status: 413,
    message: 'The request body is too large.',
  },
};

const sourceNames: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};

/** Turns the zod type provider's validation errors into the API's `loc`/`msg`/`type` items. */
export function toValidationIssues(error: FastifyError & { validation: unknown[] }): ValidationIssue[] {
  const source = sourceNames[error.validationContext ?? 'body'] ?? 'body';
  return (error.validation as { instancePath: string; keyword: string; message?: string }[]).map((v) => {
    const path = v.instancePath
      .split('/')
      .filter(Boolean)
      .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
    const message = v.message ?? 'Invalid value';
    const missing = v.keyword === 'invalid_type' && /received undefined$/.test(message);
    return {
      loc: [source, ...path],
      msg: missing ? 'Field required' : message,
      type: missing ? 'missing' : v.keyword,
    };
  });
}

function send(reply: FastifyReply, status: number, body: ErrorResponse): FastifyReply {
  // A request refused before its body was read to the end (a multipart field or file over its limit, a
  // guard before the upload) leaves the rest of that body on the connection, where the next request on it
  // would wait behind bytes nobody reads: close it after this answer, as Fastify does for a JSON body over
  // its limit. (`complete` is undefined for injected requests, which have no connection.)
  if (reply.request.raw.complete === false) reply.header('connection', 'close');
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

/** Installs the one error handler: every failure leaves in the `{"detail": …}` shape; 5xx hide internals. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, error.message);
      if (error.headers) reply.headers(error.headers);
      return send(reply, error.status, {
        detail: {
          status: error.code,
          message: error.message,
          ...(error.errors ? { errors: error.errors } : {}),
        },
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = toValidationIssues(error);
      const first = errors[0];
      const where = first ? first.loc.join('.') : 'request';
      return send(reply, 422, {
        detail: {
          status: 'invalid_request',
          message: first ? `Invalid request: ${where}: ${first.msg}` : 'Invalid request.',
          errors,
        },
      });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, cause: error.cause }, 'response did not match its contract');
      return send(reply, 500, {
        detail: {
          status: 'internal_error',
          message: 'Something went wrong on our side. Please try again later.',
        },
      });
    }
    const known = error.code ? fastifyErrors[error.code] : undefined;
    if (known) return send(reply, known.status, { detail: { status: known.code, message: known.message } });
    if (error.statusCode === 429) {
      // accounts §5: the one sentence the web shows for too many attempts, whichever route was limited.
      return send(reply, 429, {
        detail: { status: 'rate_limited', message: emailActionMessages.tooManyAttempts },
      });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return send(reply, error.statusCode, {
        detail: { status: 'bad_request', message: error.message || 'The request could not be processed.' },
      });
    }
    request.log.error({ err: error }, 'unexpected error');
    return send(reply, 500, {
      detail: {
        status: 'internal_error',
        message: 'Something went wrong on our side. Please try again later.',
      },
    });
  });
}

/** The JSON 404 for a method and path no route answers. */
export function sendRouteNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = request.url.split('?')[0] ?? request.url;
  return send(reply, 404, {
    detail: { status: 'not_found', message: `No route matches ${request.method} ${path}.` },
  });
}
