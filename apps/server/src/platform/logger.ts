import pino, { type Logger } from 'pino';
import type { Config } from '../config';

const SECRET_QUERY_KEY = /code|token|key|secret|password/i;

/**
 * A URL fit for the log: one-time codes travel in some paths and queries (`PUT /v1/user/email?
 * verification_code=…`, `/v1/user/backup-code/{code}/remove-mfa`), so their values are masked.
 */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = (queryAt === -1 ? url : url.slice(0, queryAt)).replace(
    /(\/backup-code\/)[^/?]+/,
    '$1[redacted]',
  );
  if (queryAt === -1) return path;
  const params = new URLSearchParams(url.slice(queryAt + 1));
  for (const key of new Set(params.keys())) {
    if (SECRET_QUERY_KEY.test(key)) params.set(key, '[redacted]');
  }
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** The process logger. Secrets never reach the log: auth headers, cookies, API keys and codes in URLs. */
export function createLogger(log: Config['log'], destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: log.level,
    serializers: {
      req: (req: LoggedRequest) => ({
        method: req.method,
        url: req.url === undefined ? undefined : redactUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["xi-api-key"]',
        'req.headers["xi-sensitive-action-code"]',
        'res.headers["set-cookie"]',
        '*.password',
        '*.token',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
