import neo4j, { Driver } from 'neo4j-driver';

export interface DriverOptions {
  uri: string;
  user: string;
  password: string;
  /** Bounds every wait on the database so that an outage answers 503 instead of hanging. */
  timeoutMs: number;
}

export function createDriver(opts: DriverOptions): Driver {
  return neo4j.driver(opts.uri, neo4j.auth.basic(opts.user, opts.password), {
    disableLosslessIntegers: true,
    connectionTimeout: Math.min(opts.timeoutMs, 3000),
    connectionAcquisitionTimeout: opts.timeoutMs,
    maxTransactionRetryTime: Math.floor(opts.timeoutMs / 2),
    maxConnectionPoolSize: 100,
    logging: { level: 'error', logger: () => undefined },
  });
}
