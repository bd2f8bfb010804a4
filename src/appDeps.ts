import type { Logger } from 'pino';
import type { Config } from './config';
import type { Db } from './db/db';

/** What the application is built from (boot.ts makes it; app.ts and the areas' wiring take it). */
export interface AppDeps {
  config: Config;
  log: Logger;
  db: Db;
  adminKeyHash: string;
  /** True once migrations are applied; /readyz answers 503 before. */
  isMigrated: () => boolean;
}
