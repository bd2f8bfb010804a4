import type { ChangeLog, Db, Params, Row, RowOf, Statement, Tx } from '../../db/db';
import { currentActor } from '../../auth/actor';
import { type ChangeDraft, describeChanges } from './capture';

/** A change event as the feed answers it (docs/behaviour.md section 12). */
export interface ChangeEvent {
  revision: number;
  at: string;
  actor: { kind: string; id: string };
  op: string;
  kind: string;
  key: string;
  before?: unknown;
  after?: unknown;
}

/** Actorless writes (start-up bootstrap, background sweeps) are the service's own. */
const SYSTEM = { kind: 'admin' as const, id: 'system' };

const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));
const parsed = (v: string | null) => (typeof v === 'string' ? JSON.parse(v) : undefined);

/**
 * A revision's feed events as one ChangeSet node's parallel lists, index = `seq`. Neo4j lists hold
 * no null: an absent before/after is '' (no JSON text is empty).
 */
function changeSetOf(feed: ChangeDraft[], actor: { kind: string; id: string }) {
  return {
    actor_kind: actor.kind,
    actor_id: actor.id,
    ops: feed.map((c) => c.op),
    kinds: feed.map((c) => c.kind),
    keys: feed.map((c) => c.key),
    befores: feed.map((c) => json(c.before) ?? ''),
    afters: feed.map((c) => json(c.after) ?? ''),
  };
}

/**
 * The Db's change log: what each write statement changed, in its transaction: the feed's events
 * as one `:ChangeSet` node per (environment, revision), the audit-only ones as `:AuditEvent` nodes.
 */
export class ChangeStore implements ChangeLog {
  private record_?: Statement<RowOf<'changes/recordAtNextRevision'>>;
  private list_?: Statement<RowOf<'changes/listChanges'>>;
  private audit_?: Statement<RowOf<'changes/recordAuditEvents'>>;

  constructor(private readonly db: () => Db) {}

  private get q() {
    this.record_ ??= this.db().statement('changes/recordAtNextRevision');
    this.list_ ??= this.db().statement('changes/listChanges');
    this.audit_ ??= this.db().statement('changes/recordAuditEvents');
    return { record: this.record_, list: this.list_, audit: this.audit_ };
  }

  describe(stmt: Statement, params: Params, rows: Row[]): ChangeDraft[] {
    return describeChanges(stmt.changes, stmt.invalidates, params, rows);
  }

  async recordAtNextRevision(tx: Tx, env: string, feed: { env: string; feed: boolean }[]): Promise<number | undefined> {
    const actor = currentActor() ?? SYSTEM;
    const at = new Date().toISOString();
    return (await tx.one(this.q.record, { env, at, ...changeSetOf(feed as ChangeDraft[], actor) }))?.revision;
  }

  async recordAudit(tx: Tx, env: string, changes: { env: string; feed: boolean }[]): Promise<void> {
    const actor = currentActor() ?? SYSTEM;
    const events = (changes as ChangeDraft[]).map((c, seq) => ({
      seq,
      actor_kind: actor.kind,
      actor_id: actor.id,
      op: c.op,
      kind: c.kind,
      key: c.key,
      before: json(c.before),
      after: json(c.after),
    }));
    if (events.length) await tx.rows(this.q.audit, { env, at: new Date().toISOString(), events });
  }

  /** Whole revisions after `after`, in order, about `pageSize` events (one revision may exceed it). */
  async list(env: string, after: number, pageSize: number): Promise<ChangeEvent[]> {
    const rows = await this.db().readLatestRows(this.q.list, { env, after, pageSize });
    return rows.map(({ change: c }) => {
      const before = parsed(c.before);
      const afterState = parsed(c.after);
      return {
        revision: c.revision,
        at: c.at,
        actor: { kind: c.actor_kind, id: c.actor_id },
        op: c.op,
        kind: c.kind,
        key: c.key,
        ...(before !== undefined ? { before } : {}),
        ...(afterState !== undefined ? { after: afterState } : {}),
      };
    });
  }
}
