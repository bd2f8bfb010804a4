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
 *
 * With `holdMs` (DECISION_BATCH_HOLD_MS), while one of an environment's batches runs, its next
 * questions wait for that batch to answer, for at most `holdMs`, and then go together: fewer,
 * larger queries (a query's own cost, in Neo4j and in the driver, is paid once a batch). A
 * batch that runs longer than `holdMs` holds nobody any more (a slow walk does not hold up
 * the checks behind it longer than that), and a full batch (`maxBatch` waiting) leaves at once,
 * so a flood still uses every slot the queue gives. Measured in docs/benchmarks.md ("One batch
 * in flight an environment").
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
  /** Per environment, its batches running that still hold its next questions (younger than holdMs). */
  private readonly holding = new Map<string, number>();
  private scheduled = false;

  constructor(
    /** `floor`: the highest revision the batch's questions must include (undefined: none asked). */
    private readonly run: (env: string, questions: Q[], floor?: number) => Promise<A[]>,
    private readonly slots: FairQueue,
    private readonly maxBatch = 100,
    /** How long a running batch holds its environment's next questions (0: they leave on the next turn of the event loop). */
    private readonly holdMs = 0,
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
      for (const env of this.pending.keys()) this.sendNext(env);
    });
  }

  /** Whether `waiting` questions of `env` wait for its running batch (fewer than a full batch, and one holds). */
  private held(env: string, waiting: number): boolean {
    return (this.holding.get(env) ?? 0) > 0 && waiting < this.maxBatch;
  }

  /** Marks a batch of `env` as holding its next questions; answers the function that lets them go (once). */
  private hold(env: string): () => void {
    if (this.holdMs <= 0) return () => undefined;
    this.holding.set(env, (this.holding.get(env) ?? 0) + 1);
    let holds = true;
    const letGo = () => {
      if (!holds) return;
      holds = false;
      clearTimeout(timer);
      const left = (this.holding.get(env) ?? 1) - 1;
      if (left > 0) this.holding.set(env, left);
      else this.holding.delete(env);
      this.sendNext(env);
    };
    const timer = setTimeout(letGo, this.holdMs);
    timer.unref();
    return letGo;
  }

  /**
   * Asks a slot for `env`'s waiting questions unless it has asked already or a running batch holds
   * them: on a turn of the event loop (`schedule`), or at once when a batch of it answers or its
   * hold runs out, so that Neo4j walks the next batch while the service writes this one's answers.
   */
  private sendNext(env: string): void {
    const line = this.pending.get(env);
    if (line && !this.asking.has(env) && !this.held(env, line.length)) this.request(env);
  }

  /**
   * A batch has answered: its slot is freed and the questions it held are sent first. When its
   * environment has questions on their way to Neo4j, its own are answered after the current turn
   * of the event loop (setImmediate): the next batch's Bolt message is written before these HTTP
   * answers are, so Neo4j walks it while the service answers (docs/benchmarks.md, "The next batch
   * sent before the answers").
   */
  private settle(env: string, release: () => void, letGo: () => void, answer: () => void): void {
    release();
    letGo();
    if (this.asking.has(env)) setImmediate(answer);
    else answer();
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
        if (!batch.length) return release();
        const letGo = this.hold(env);
        // More than a batch waited: the rest asks for its own slot now, unless this batch holds it.
        if (line.length && !this.held(env, line.length)) this.request(env);
        const floors = batch.flatMap((p) => (p.floor === undefined ? [] : [p.floor]));
        this.run(
          env,
          batch.map((p) => p.question),
          floors.length ? Math.max(...floors) : undefined,
        ).then(
          (answers) => this.settle(env, release, letGo, () => batch.forEach((p, i) => p.resolve(answers[i]))),
          (err) => this.settle(env, release, letGo, () => batch.forEach((p) => p.reject(err))),
        );
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
