import type { Db, Rehearsal } from '../../db/db';

/** An impact preview's candidates, and the rehearsal its intended writes run in (src/db/db.ts). */
export class ImpactStore {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = this.db.statements({ usersReaching: 'impact/usersReaching', objectsFrom: 'impact/objectsFrom' });
  }

  /** The users whose access can pass through the group (on the leader: the latest state). */
  async usersReaching(env: string, group: string): Promise<string[]> {
    const [row] = await this.db.readLatestRows(this.q.usersReaching, { env, group });
    return row?.users ?? [];
  }

  /** The instance and every instance reached from it, with their resources' actions. */
  async objectsFrom(env: string, resource: string, key: string) {
    const [row] = await this.db.readLatestRows(this.q.objectsFrom, { env, resource, key });
    return row?.objects ?? [];
  }

  /** A write transaction never committed: what runs in it sees its writes, nothing of it is kept. */
  rehearse(timeoutMs: number): Promise<Rehearsal> {
    return this.db.openRehearsal(timeoutMs);
  }
}
