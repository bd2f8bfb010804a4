import type { Db, ReadStream, Statement } from '../../db/db';
import type { WalkSelection } from '../../db/walkSelection';
import type { NodeRow, RelationshipRow } from './format';

/** How long an import holds its environment without writing a batch before another may take it over. */
export const IMPORT_LEASE_MS = 120_000;

/**
 * Export and import of an environment's records (cypher/export, cypher/import). Every transaction
 * of an import (its start, each batch, its end, a discard) runs under the admin deadline
 * (ADMIN_TIMEOUT_MS), not a decision's.
 */
export class SnapshotStore {
  readonly q;
  private readonly db: Db;

  constructor(
    db: Db,
    /**
     * Which walk answers (src/db/walkSelection.ts): with the extension, an import's batches share the
     * environment's lock (cypher/import/createNodesExt.cypher, createRelationshipsExt.cypher) and the
     * lease is renewed apart (`renewLease`); none: each batch renews it under the lock, one at a time.
     */
    private readonly walk: Pick<WalkSelection, 'extension'>,
  ) {
    this.db = db.admin();
    this.q = db.statements({
      holdWriters: 'export/holdWriters',
      revision: 'revisions/readRevision',
      nodes: 'export/nodes',
      relationships: 'export/relationships',
      parts: 'export/parts',
      begin: 'import/begin',
      createNodes: 'import/createNodes',
      createRelationships: 'import/createRelationships',
      createNodesExt: 'import/createNodesExt',
      createRelationshipsExt: 'import/createRelationshipsExt',
      renewLease: 'import/renewLease',
      finish: 'import/finish',
      discardBatch: 'import/discardBatch',
      abandon: 'import/abandon',
    });
  }

  /**
   * One transaction for a whole export, on the leader, that may hold the environment's writers
   * (cypher/export/holdWriters.cypher) for at most `holdMs` (the server ends it then): rows
   * pulled 10,000 at a time.
   */
  openHeld(holdMs: number): Promise<ReadStream> {
    return this.db.openReadStream(10_000, { timeoutMs: holdMs });
  }

  /**
   * One transaction on the leader (where writers take the environment's lock) for an export read by
   * the walk extension (cypher/export/parts.cypher): the procedure holds the writers only while it
   * reads; the transaction lasts until its parts are pulled, bound by `timeoutMs`.
   */
  openLeader(timeoutMs: number): Promise<ReadStream> {
    return this.db.openReadStream(4, { timeoutMs });
  }

  /** One read transaction for a whole export that holds no writer (the environment too large to hold): rows pulled as needed. */
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
   * True when the batches leave the lease to `renewLease` (the extension's statements); checked
   * before each batch, as the walk may change between them.
   */
  get batchesShareLock(): boolean {
    return this.walk.extension === true;
  }

  /** One batch, its own transaction (bound by ADMIN_TIMEOUT_MS); answers how many were created (0: the import is no longer the environment's). */
  createNodes(env: string, importId: string, rows: NodeRow[]): Promise<number> {
    return this.batch(this.q.createNodesExt, this.q.createNodes, { env, importId, rows });
  }

  createRelationships(env: string, importId: string, rows: RelationshipRow[]): Promise<number> {
    return this.batch(this.q.createRelationshipsExt, this.q.createRelationships, { env, importId, rows });
  }

  /** A batch through the extension's statement (the lock shared) or the Cypher one (the lease renewed under the lock). */
  private async batch(
    shared: Statement<{ created: number }>,
    renewing: Statement<{ created: number }>,
    params: { env: string; importId: string; rows: NodeRow[] | RelationshipRow[] },
  ): Promise<number> {
    const [row] = await this.db.write((tx) =>
      // Chosen in the transaction: a write that found the procedure missing runs again with the walk turned to Cypher.
      this.batchesShareLock ? tx.rows(shared, params) : tx.rows(renewing, { ...params, leaseUntil: Date.now() + IMPORT_LEASE_MS }),
    );
    return row?.created ?? 0;
  }

  /** The import's lease renewed (after every batch in flight has committed); false: the import is no longer the environment's. */
  async renewLease(env: string, importId: string): Promise<boolean> {
    return (await this.db.writeRows(this.q.renewLease, { env, importId, leaseUntil: Date.now() + IMPORT_LEASE_MS })).length > 0;
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
