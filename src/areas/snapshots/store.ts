import type { Db, ReadStream } from '../../db/db';
import type { NodeRow, RelationshipRow } from './format';

/** A link whose ends were created by the same import: their element ids too. */
export type LinkByRef = RelationshipRow & { fromRef: string; toRef: string };

/** How long an import holds its environment without writing a batch before another may take it over. */
export const IMPORT_LEASE_MS = 120_000;

/** Export and import of an environment's records (cypher/export, cypher/import). */
export class SnapshotStore {
  readonly q;

  constructor(private readonly db: Db) {
    this.q = db.statements({
      revision: 'revisions/readRevision',
      nodes: 'export/nodes',
      relationships: 'export/relationships',
      begin: 'import/begin',
      createNodes: 'import/createNodes',
      createRelationships: 'import/createRelationships',
      createLinksByRef: 'import/createLinksByRef',
      finish: 'import/finish',
      discardBatch: 'import/discardBatch',
      abandon: 'import/abandon',
    });
  }

  /** One read transaction for a whole export, pulled as the response is written. */
  openRead(): Promise<ReadStream> {
    return this.db.openReadStream();
  }

  async begin(env: string, importId: string): Promise<{ state: 'started' | 'not_empty' | 'importing'; stale: boolean }> {
    return this.db.write(async (tx) => {
      const row = await tx.one(this.q.begin, { env, importId, nowMs: Date.now(), leaseUntil: Date.now() + IMPORT_LEASE_MS });
      // Every replica must drop what it keeps of the environment's keys before this is acknowledged.
      tx.announce();
      return row ?? { state: 'not_empty' as const, stale: false };
    });
  }

  /**
   * One batch, its own transaction (bound by DB_TIMEOUT_MS); answers [id, element id] of each
   * record created (none: the import is no longer the environment's).
   */
  async createNodes(env: string, importId: string, rows: NodeRow[]): Promise<string[][]> {
    const [row] = await this.db.writeRows(this.q.createNodes, { env, importId, rows, leaseUntil: Date.now() + IMPORT_LEASE_MS });
    return row?.refs ?? [];
  }

  /**
   * One batch of links, its own transaction: those whose ends' element ids are known (`byRef`,
   * with `fromRef` / `toRef`) by a direct seek, the others by their ends' ids. Answers how many
   * were created.
   */
  async createRelationships(env: string, importId: string, byId: RelationshipRow[], byRef: LinkByRef[]): Promise<number> {
    const leaseUntil = Date.now() + IMPORT_LEASE_MS;
    return this.db.write(async (tx) => {
      let created = 0;
      if (byRef.length) created += (await tx.one(this.q.createLinksByRef, { env, importId, rows: byRef, leaseUntil }))?.created ?? 0;
      if (byId.length) created += (await tx.one(this.q.createRelationships, { env, importId, rows: byId, leaseUntil }))?.created ?? 0;
      return created;
    });
  }

  /** The one small transaction that makes the import visible; false: the import is no longer the environment's. */
  async finish(env: string, importId: string, counts: { nodes: number; relationships: number }): Promise<boolean> {
    return (await this.db.writeRows(this.q.finish, { env, importId, ...counts })).length > 0;
  }

  async discardBatch(env: string, importId: string, batch: number): Promise<number> {
    const [row] = await this.db.writeRows(this.q.discardBatch, { env, importId, batch });
    return row?.deleted ?? 0;
  }

  async abandon(env: string, importId: string): Promise<void> {
    await this.db.writeRows(this.q.abandon, { env, importId, nowIso: new Date().toISOString() });
  }
}
