import type { Db } from '../../db/db';

/** An environment's revision as a read found it. */
export interface EnvRevision {
  env: string;
  revision: number;
}

/** The revisions of environments, read for the revision ledger (src/areas/decisions/revisions.ts). */
export class RevisionsStore {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = this.db.statements({
      readAll: 'revisions/readRevisions',
      readOne: 'revisions/readRevision',
      readKnown: 'revisions/readKnownRevisions',
    });
  }

  /** True when reads may go to a cluster's secondary (a routing URI). */
  get routing(): boolean {
    return this.db.routing;
  }

  /** The revisions of the environments named, from the leader; a deleted one is absent. */
  async known(ids: string[]): Promise<EnvRevision[]> {
    return this.db.readOnce(this.q.readKnown, { ids }, 'latest');
  }

  /** One environment's revision from the leader, in one auto-commit query (undefined: none yet). */
  async latest(envId: string): Promise<number | undefined> {
    const [row] = await this.db.readOnce(this.q.readOne, { envId }, 'latest');
    return row?.revision;
  }

  /** Every environment's revision (or one environment's when `envId` is given). */
  async all(envId: string | null): Promise<EnvRevision[]> {
    return this.db.readRows(this.q.readAll, { envId });
  }
}
