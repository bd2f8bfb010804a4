import pino, { type Logger } from 'pino';

/** One logger; areas take children. Secrets never reach a log line. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'graph-authz' },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        '*.secret',
        '*.password',
        '*.token',
        '*.adminApiKey',
        '*.neo4jPassword',
      ],
      censor: '[redacted]',
    },
  });
}
