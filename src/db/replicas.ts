import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db, ReplicaView } from './db';

/** How often a replica writes its heartbeat and reads the others'. */
export const HEARTBEAT_MS = 1_000;
/** A view of the others is trusted this long after its read was sent (a beat or two may be late). */
export const VIEW_VALID_MS = 2_500;
/** A replica whose heartbeat has not moved for this long (by the reader's own clock) counts as gone. */
export const LIVE_MS = 10_000;
/** Slack for timers that fire late and clocks that do not tick exactly alike. */
const MARGIN_MS = 100;

/**
 * The replicas of a deployment, by heartbeats in the graph (cypher/replicas/heartbeat.cypher), so
 * that a replica that is alone skips the commit wait of COHERENCE_WINDOW_MS (src/db/db.ts).
 *
 * The commit wait exists for the other replicas: one answers from its coherence window (a
 * revision read sent less than W before the question arrived, src/areas/decisions/revisions.ts),
 * and only a wait of W after the commit makes such a read include a write acknowledged before
 * the question. The replica that wrote knows its own writes at commit. So:
 *  - a replica is `alone` while its last read of the heartbeats (sent at s) found every other
 *    replica gone, until s + VIEW_VALID_MS: it acknowledges writes at once. Another replica is
 *    gone when its heartbeat counter has not moved for LIVE_MS, timed by this process's own
 *    clock from the answer that first showed that value (no clock of another machine is read);
 *  - a replica answers from its window (`windowOpen`) only questions that arrived VIEW_VALID_MS
 *    + W or more after its first heartbeat committed (every replica that thought itself alone has
 *    read the heartbeats again by then, or waited W after each commit since), and only until
 *    LIVE_MS - VIEW_VALID_MS - W after its last heartbeat was sent (before any other replica may
 *    count it gone). A window that lapsed opens again as at a first heartbeat.
 * Until its first heartbeat, or when the database does not answer, a replica is not alone and its
 * window is shut: it waits after each write and reads on each question, as with no registry.
 */
export class Replicas implements ReplicaView {
  readonly id = randomUUID();
  private readonly q;
  private aloneUntil = -Infinity;
  private windowFrom = Infinity;
  private windowUntil = -Infinity;
  /** Each other replica's last heartbeat counter, and when (this clock) an answer first showed it. */
  private readonly heard = new Map<string, { beat: number; since: number }>();
  private timer?: NodeJS.Timeout;
  private beating?: Promise<unknown>;
  private stopped = false;

  /** `skipWait` false (COMMIT_WAIT=always): never alone, every write waits (a rolling update from a version without heartbeats). */
  constructor(
    private readonly db: Db,
    private readonly windowMs: number,
    private readonly skipWait = true,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.q = this.db.statements({ beat: 'replicas/heartbeat', leave: 'replicas/leave' });
  }

  alone(): boolean {
    return this.skipWait && this.now() < this.aloneUntil;
  }

  /**
   * Whether this replica may answer now, from its coherence window, a question that arrived at
   * `arrivedAt` (this process's clock): the window must have been open when it arrived.
   */
  windowOpen(arrivedAt = this.now()): boolean {
    return arrivedAt >= this.windowFrom && this.now() < this.windowUntil;
  }

  /** The other replicas alive in the last view (their ids). */
  others(): string[] {
    const t = this.now();
    return [...this.heard].filter(([, h]) => t - h.since < LIVE_MS).map(([id]) => id);
  }

  /**
   * What one heartbeat answered (`others`: every other replica's id and heartbeat counter), its
   * query sent at `sent` and answered at `answered` (this process's clock).
   */
  learn(sent: number, answered: number, others: { id: string; beat: number }[]): void {
    if (this.stopped) return;
    const present = new Set<string>();
    for (const { id, beat } of others) {
      present.add(id);
      const h = this.heard.get(id);
      if (!h || h.beat !== beat) this.heard.set(id, { beat, since: answered });
    }
    for (const id of this.heard.keys()) if (!present.has(id)) this.heard.delete(id); // left
    this.aloneUntil = this.others().length === 0 ? sent + VIEW_VALID_MS : -Infinity;
    // The heartbeat committed before `answered`: a window that had lapsed opens as at a first registration.
    if (answered >= this.windowUntil) this.windowFrom = answered + VIEW_VALID_MS + this.windowMs + MARGIN_MS;
    this.windowUntil = sent + LIVE_MS - VIEW_VALID_MS - this.windowMs - MARGIN_MS;
  }

  /** One heartbeat: writes this replica's, answers the ids of the others alive. */
  async beat(): Promise<string[]> {
    const sent = this.now();
    const rows = await this.db.writeRows(this.q.beat, { id: this.id });
    const others = rows[0]?.others ?? [];
    this.learn(sent, this.now(), others);
    return this.others();
  }

  /** Beats now and every HEARTBEAT_MS; a failed beat leaves the view to expire (waits and reads come back). */
  start(log: Logger): Promise<unknown> {
    const run = () => {
      if (this.beating || this.stopped) return this.beating;
      this.beating = this.beat()
        .catch((err) => log.debug({ err: (err as Error).message }, 'replica heartbeat failed'))
        .finally(() => (this.beating = undefined));
      return this.beating;
    };
    this.timer = setInterval(run, HEARTBEAT_MS);
    this.timer.unref();
    return run() ?? Promise.resolve();
  }

  /** Stops beating and removes this replica's heartbeat, so that the others need not wait for it to age. */
  async leave(): Promise<void> {
    this.stop();
    await this.beating;
    await this.db.writeRows(this.q.leave, { id: this.id }).catch(() => undefined);
  }

  /** Stops beating: from now on this replica is never alone and its window stays shut. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.aloneUntil = -Infinity;
    this.windowUntil = -Infinity;
  }
}
