import type { Logger } from 'pino';
import type { Scope } from '../../auth/types';
import type { RevisionListener } from '../../db/db';
import type { Replicas } from '../../db/replicas';
import { SharedReads } from '../../util/sharedRead';
import type { RevisionsStore } from './revisionsStore';

/** Timers may fire a little early and clocks tick coarsely: a read must be this much newer to count. */
const MARGIN_MS = 2;

/** Revision reads of the coherence window that may be on their way at once. */
const POLLS_IN_FLIGHT = 3;

/**
 * What this process knows of each environment's revision. Every write transaction to an
 * environment bumps it in the graph (src/db/db.ts) and tells this process once committed.
 * `latest` reads it from the graph for questions that must see writes acknowledged by any
 * replica (read-your-revoke, docs/behaviour.md section 9); `current` answers the locally known one,
 * refreshed by a poll every REVISION_POLL_MS, for explicit `minimize_latency`.
 *
 * The coherence window (COHERENCE_WINDOW_MS = W) spares most questions that read: every write
 * that moves a revision is acknowledged W after its commit (the Db's commit wait), so a read of
 * the revisions sent at instant s includes every write acknowledged before s + W. A question
 * that arrived at t is answered from what this process knows when its environment's last read
 * was sent after t - W (`freshFor`); while questions come, the known environments are read again
 * whenever their last read is older than W/2, so under load almost every question finds them fresh.
 * On one Neo4j, a batch of checks or a list-objects page read from the graph returns its environment's revision too
 * (src/areas/decisions/walkStore.ts), which counts as such a read.
 */
export class Revisions implements RevisionListener {
  private readonly byEnv = new Map<string, number>();
  /** performance.now() when the newest read that included each environment was sent. */
  private readonly readSent = new Map<string, number>();
  private readonly reads = new SharedReads<number>();
  private timer?: NodeJS.Timeout;
  private readonly windowMs: number;
  private readonly replicas?: Replicas;
  private lastPollSent = -Infinity;
  private polling = 0;

  /**
   * `windowMs`: COHERENCE_WINDOW_MS, the same as the commit wait of the service's writes (0: every
   * question reads). `replicas`: the replica registry (src/db/replicas.ts): the window is used only
   * while the registry says every other replica knows of this one (the others then wait W after each write).
   */
  constructor(
    private readonly store: RevisionsStore,
    opts: { windowMs?: number; replicas?: Replicas } = {},
  ) {
    this.windowMs = opts.windowMs ?? 0;
    this.replicas = opts.replicas;
  }

  /**
   * Whether the known revision of the environment includes every write acknowledged, by any
   * replica, before `arrivedAt` (a performance.now() instant): true when a read that included it
   * was sent after arrivedAt - W. A write acknowledged before arrivedAt committed before
   * arrivedAt - W (commit wait), so before that read.
   */
  freshFor(envId: string, arrivedAt: number): boolean {
    if (!this.windowOpen(arrivedAt)) return false;
    this.keepFresh(envId);
    return (this.readSent.get(envId) ?? -Infinity) > arrivedAt - this.windowMs + MARGIN_MS;
  }

  /** Whether questions may be answered from the coherence window now (a window, and the replica registry allows it). */
  windowOpen(arrivedAt?: number): boolean {
    return this.windowMs > 0 && (!this.replicas || this.replicas.windowOpen(arrivedAt));
  }

  /** A read (started at `sent`) answered the environment's revision: it covers every commit before `sent`. */
  learnRead(envId: string, rev: number, sent: number): void {
    this.learn(envId, rev);
    if (sent > (this.readSent.get(envId) ?? -Infinity)) this.readSent.set(envId, sent);
  }

  /**
   * Reads every known environment again when the last such read was sent more than W/2 ago (one
   * query), unless a read that included the asked environment was sent less than W/2 ago: the
   * checks' own reads return their environment's revision (cypher/decisions/allowed.cypher,
   * `learnRead`), so an environment whose checks go to the graph is kept fresh by them, and Neo4j
   * is not asked twice. A read keeps its environment fresh for W after it was sent, so a poll sent
   * W/2 after the last one has W/2 to come back (a round trip of a millisecond or two when Neo4j
   * answers only these reads); polls every W/4 were half of Neo4j's transactions under uncached
   * checks and its main work under cached ones (docs/benchmarks.md).
   * Up to POLLS_IN_FLIGHT overlap, so that a slow round trip does not age the reads past W.
   */
  private keepFresh(envId: string): void {
    const sent = performance.now();
    if (this.polling >= POLLS_IN_FLIGHT || sent - this.lastPollSent < this.windowMs / 2) return;
    if (sent - (this.readSent.get(envId) ?? -Infinity) < this.windowMs / 2) return;
    this.polling++;
    this.lastPollSent = sent;
    const ids = [...this.byEnv.keys()];
    this.store
      .known(ids)
      .then((rows) => {
        const found = new Set<string>();
        for (const r of rows) {
          found.add(r.env);
          this.learnRead(r.env, r.revision, sent);
        }
        // A deleted environment: nothing kept of it is used again (its keys are gone with it).
        for (const id of ids) {
          if (!found.has(id)) {
            this.byEnv.delete(id);
            this.readSent.delete(id);
          }
        }
      })
      .catch(() => undefined) // a failed read makes nothing fresh: questions read for themselves
      .finally(() => this.polling--);
  }

  start(pollMs: number, log: Logger): void {
    this.timer = setInterval(
      () => this.refresh(null).catch((err) => log.debug({ err: (err as Error).message }, 'revision poll failed')),
      pollMs,
    );
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /**
   * What a read that must include every write acknowledged before this request (read-your-revoke)
   * needs on a cluster, where a secondary may lag: the environment's revision read after the
   * request arrived (`scope.revision` when the key lookup read it). On one Neo4j every read
   * includes every commit: nothing, and no read.
   */
  async floorFor(scope: Scope): Promise<number | undefined> {
    if (!this.store.routing) return undefined;
    return scope.revision ?? this.latest(scope.envId);
  }

  /** Reads may be served by a cluster's secondary that lags the leader: every read then needs a floor. */
  get routing(): boolean {
    return this.store.routing;
  }

  /** The locally known revision (bounded staleness); read from the graph the first time. */
  async current(envId: string): Promise<number> {
    if (!this.byEnv.has(envId)) await this.refresh(envId);
    return this.byEnv.get(envId) ?? 0;
  }

  /**
   * The environment's revision from a read that started after this call: it includes every
   * write committed before. Callers that arrive while a read runs share the next one, so at
   * most one read per environment is in flight and its cost is spread over every question
   * that waited for it.
   */
  latest(envId: string): Promise<number> {
    return this.reads.get(envId, () => this.readOne(envId));
  }

  // Sent to the leader (`latest`): on a cluster a follower may not have applied the latest
  // commit of another replica yet, and the point of this read is to see it. One auto-commit
  // query: a single round trip.
  private async readOne(envId: string): Promise<number> {
    const sent = performance.now();
    const rev = (await this.store.latest(envId)) ?? 0;
    this.learnRead(envId, rev, sent);
    return rev;
  }

  private async refresh(envId: string | null): Promise<void> {
    for (const row of await this.store.all(envId)) this.learn(row.env, row.revision);
  }

  known(envId: string): number | undefined {
    return this.byEnv.get(envId);
  }

  learn(envId: string, rev: number): void {
    if (rev > (this.byEnv.get(envId) ?? -1)) this.byEnv.set(envId, rev);
  }
}
