import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db, ReplicaView } from './db';

/** How often a replica writes its heartbeat and reads the others'. */
export const HEARTBEAT_MS = 1_000;
/** A view of the others is trusted this long after its read was sent (a beat or two may be late). */
export const VIEW_VALID_MS = 2_500;
/** A replica whose heartbeat is older than this (by the database's clock) counts as gone. */
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
 *  - a replica is `alone` while its last read of the others (sent at s, no other heartbeat newer
 *    than LIVE_MS) is younger than VIEW_VALID_MS: it acknowledges writes at once;
 *  - a replica answers from its window (`windowOpen`) only questions that arrived VIEW_VALID_MS
 *    + W or more after its first heartbeat committed (every replica that thought itself alone has read the others again by
 *    then, or waited W after each commit since), and only until LIVE_MS - VIEW_VALID_MS - W after
 *    its last heartbeat was sent (before any other replica may count it gone). A window that
 *    lapsed opens again as a new registration does.
 * Until its first heartbeat, or when the database does not answer, a replica is not alone and its
 * window is shut: it waits after each write and reads on each question, as with no registry.
 */
export class Replicas implements ReplicaView {
  readonly id = randomUUID();
  private readonly q = this.db.statements({ beat: 'replicas/heartbeat', leave: 'replicas/leave' });
  private aloneUntil = -Infinity;
  private windowFrom = Infinity;
  private windowUntil = -Infinity;
  private timer?: NodeJS.Timeout;
  private beating?: Promise<void>;

  constructor(
    private readonly db: Db,
    private readonly windowMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  alone(): boolean {
    return this.now() < this.aloneUntil;
  }

  /**
   * Whether this replica may answer now, from its coherence window, a question that arrived at
   * `arrivedAt` (this process's clock): the window must have been open when it arrived.
   */
  windowOpen(arrivedAt = this.now()): boolean {
    return arrivedAt >= this.windowFrom && this.now() < this.windowUntil;
  }

  /**
   * What one heartbeat told (`others`: replicas other than this one with a heartbeat newer than
   * LIVE_MS), its read sent at `sent` and answered at `answered` (this process's clock).
   */
  learn(sent: number, answered: number, others: number): void {
    this.aloneUntil = others === 0 ? sent + VIEW_VALID_MS : -Infinity;
    // The heartbeat committed before `answered`: a window that had lapsed opens as at a first registration.
    if (answered >= this.windowUntil) this.windowFrom = answered + VIEW_VALID_MS + this.windowMs + MARGIN_MS;
    this.windowUntil = sent + LIVE_MS - VIEW_VALID_MS - this.windowMs - MARGIN_MS;
  }

  /** One heartbeat: writes this replica's, reads which others are alive (their ids). */
  async beat(): Promise<string[]> {
    const sent = this.now();
    const rows = await this.db.writeRows(this.q.beat, { id: this.id, liveMs: LIVE_MS });
    const others = (rows[0]?.others as string[] | undefined) ?? [];
    this.learn(sent, this.now(), rows.length ? others.length : 1);
    return others;
  }

  /** Beats now and every HEARTBEAT_MS; a failed beat leaves the view to expire (waits and reads come back). */
  start(log: Logger): Promise<void> {
    const run = () => {
      if (this.beating) return this.beating;
      this.beating = this.beat()
        .then(() => undefined)
        .catch((err) => log.debug({ err: (err as Error).message }, 'replica heartbeat failed'))
        .finally(() => (this.beating = undefined));
      return this.beating;
    };
    this.timer = setInterval(run, HEARTBEAT_MS);
    this.timer.unref();
    return run();
  }

  /** Stops beating and removes this replica's heartbeat, so that the others need not wait for it to age. */
  async leave(): Promise<void> {
    this.stop();
    await this.beating;
    await this.db.writeRows(this.q.leave, { id: this.id }).catch(() => undefined);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.aloneUntil = -Infinity;
    this.windowUntil = -Infinity;
  }
}
