import type { Db } from '../../db/db';

/** The readiness probe's one statement. */
export class HealthStore {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = this.db.statements({ ping: 'system/ping' });
  }

  /** True when Neo4j answered `system/ping`; false when it failed. */
  ping(): Promise<boolean> {
    return this.db.readRows(this.q.ping, {}).then(
      () => true,
      () => false,
    );
  }
}
