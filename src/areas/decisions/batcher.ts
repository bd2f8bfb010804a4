import type { FairQueue } from '../../util/fairQueue';

/**
 * Coalesces permission questions that arrive together into one traversal query per batch
 * (the DataLoader pattern): one query costs about as much as a few dozen questions inside it.
 * Each query holds a slot of `slots` (a FairQueue: at most DECISION_QUERIES_PER_ENV of one
 * environment, DECISION_QUERIES_IN_FLIGHT in all, freed slots handed to environments in turn);
 * questions that arrive while their environment waits for a slot go out together in its next
 * batch, so batches grow with the load and stay at one question when idle, and one environment's
 * flood of checks delays another's by one batch at most. Questions whose environment found no slot
 * within the queue's bounded wait are refused (429 TOO_MANY_REQUESTS).
 */
interface Pending<Q, A> {
  question: Q;
  /** The revision of the environment the answer must include (Db.readOnce's `atLeast`), if any. */
  floor?: number;
  resolve: (answer: A) => void;
  reject: (err: unknown) => void;
}

export class QuestionBatcher<Q, A = boolean> {
  /** Waiting questions per environment. */
  private readonly pending = new Map<string, Pending<Q, A>[]>();
  /** Environments with a slot asked for and not yet given. */
  private readonly asking = new Set<string>();
  private scheduled = false;

  constructor(
    /** `floor`: the highest revision the batch's questions must include (undefined: none asked). */
    private readonly run: (env: string, questions: Q[], floor?: number) => Promise<A[]>,
    private readonly slots: FairQueue,
    private readonly maxBatch = 100,
  ) {}

  ask(env: string, questions: Q[], floor?: number): Promise<A[]> {
    let line = this.pending.get(env);
    if (!line) this.pending.set(env, (line = []));
    const waiting = line;
    const answers = questions.map((question) => new Promise<A>((resolve, reject) => waiting.push({ question, floor, resolve, reject })));
    this.schedule();
    return Promise.all(answers);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      for (const env of this.pending.keys()) if (!this.asking.has(env)) this.request(env);
    });
  }

  /** Asks a slot for `env`; once given, sends up to `maxBatch` of its waiting questions, and asks again if more wait. */
  private request(env: string): void {
    this.asking.add(env);
    this.slots.acquire(env).then(
      (release) => {
        this.asking.delete(env);
        const line = this.pending.get(env) ?? [];
        const batch = line.splice(0, this.maxBatch);
        if (!line.length) this.pending.delete(env);
        else this.request(env);
        if (!batch.length) return release();
        const floors = batch.flatMap((p) => (p.floor === undefined ? [] : [p.floor]));
        this.run(
          env,
          batch.map((p) => p.question),
          floors.length ? Math.max(...floors) : undefined,
        )
          .then(
            (answers) => batch.forEach((p, i) => p.resolve(answers[i])),
            (err) => batch.forEach((p) => p.reject(err)),
          )
          .finally(release);
      },
      (refused) => {
        // No slot within the bounded wait: everything this environment has waiting is refused.
        this.asking.delete(env);
        const line = this.pending.get(env) ?? [];
        this.pending.delete(env);
        for (const p of line) p.reject(refused);
      },
    );
  }
}
