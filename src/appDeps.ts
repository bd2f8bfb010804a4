import type { Logger } from 'pino';
import type { Config } from './config';
import type { Db } from './db/db';
import type { Revisions } from './areas/decisions/revisions';
import type { Metrics } from './metrics/metrics';

/** What the application is built from (boot.ts makes it; app.ts and the areas' wiring take it). */
export interface AppDeps {
  /** The configuration, with the organisation id resolved (ORG_ID or the graph's, src/db/organization.ts). */
  config: Config & { orgId: string };
  log: Logger;
  db: Db;
  /** What this process knows of each environment's revision (the Db's revision listener). */
  revisions: Revisions;
  adminKeyHash: string;
  /** True once migrations are applied; /readyz answers 503 before. */
  isMigrated: () => boolean;
  /** The Prometheus metrics (GET /metrics); the Db reports its transactions to the same one. */
  metrics: Metrics;
}
