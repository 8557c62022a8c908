import { type ErrorCode, errorCodes, type ValidationIssue } from '@parla/contracts';

/**
 * The one error type services throw. It leaves the server as
 * `{"detail": {"status": code, "message": message}}` with the status from the contracts' code map.
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: {
      status?: number;
      errors?: ValidationIssue[];
      headers?: Record<string, string>;
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.status = options.status ?? errorCodes[code];
    this.errors = options.errors;
    this.headers = options.headers;
  }

  readonly errors: ValidationIssue[] | undefined;
  readonly headers: Record<string, string> | undefined;
}

/** A resource that does not exist, or exists in another workspace (never tell the two apart). */
export function notFound(what: string): AppError {
  return new AppError('resource_not_found', `${what} was not found.`);
}

/** A 422 `invalid_request` about one field, shaped like the validator's errors. */
export function invalid(field: string, message: string, loc: 'body' | 'query' | 'path' = 'body'): AppError {
  return new AppError('invalid_request', message, {
    errors: [{ loc: [loc, field], msg: message, type: 'value_error' }],
  });
}
