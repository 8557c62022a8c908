import pino, { type Logger } from 'pino';
import type { Config } from '../config';

/** The process logger. Secrets never reach the log: auth headers, cookies and API keys are redacted. */
export function createLogger(log: Config['log']): Logger {
  return pino({
    level: log.level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["xi-api-key"]',
        'res.headers["set-cookie"]',
        '*.password',
        '*.token',
      ],
      censor: '[redacted]',
    },
  });
}
