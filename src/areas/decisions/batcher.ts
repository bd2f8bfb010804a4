/**
 * Coalesces permission questions that arrive together into one traversal query per batch
 * (the DataLoader pattern): one query costs about as much as a few dozen questions inside it.
 * At most `maxInFlight` queries run at once; questions that arrive meanwhile wait and go out
 * together in the next batch, so batches grow with the load and stay at one question when idle.
 */
interface Pending<Q, A> {
  env: string;
  question: Q;
  /** The revision of `env` the answer must include (Db.readOnce's `atLeast`), if any. */
  floor?: number;
  resolve: (answer: A) => void;
  reject: (err: unknown) => void;
}

export class QuestionBatcher<Q, A = boolean> {
  private readonly queue: Pending<Q, A>[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    /** `floor`: the highest revision the batch's questions must include (undefined: none asked). */
    private readonly run: (env: string, questions: Q[], floor?: number) => Promise<A[]>,
    private readonly maxBatch = 100,
    private readonly maxInFlight = 4,
  ) {}

  ask(env: string, questions: Q[], floor?: number): Promise<A[]> {
    const answers = questions.map((question) => new Promise<A>((resolve, reject) => this.queue.push({ env, question, floor, resolve, reject })));
    this.schedule();
    return Promise.all(answers);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length) {
      const env = this.queue[0].env;
      const batch: Pending<Q, A>[] = [];
      for (let i = 0; i < this.queue.length && batch.length < this.maxBatch; ) {
        if (this.queue[i].env === env) batch.push(...this.queue.splice(i, 1));
        else i++;
      }
      this.inFlight++;
      const floors = batch.flatMap((p) => (p.floor === undefined ? [] : [p.floor]));
      this.run(env, batch.map((p) => p.question), floors.length ? Math.max(...floors) : undefined)
        .then((answers) => batch.forEach((p, i) => p.resolve(answers[i])), (err) => batch.forEach((p) => p.reject(err)))
        .finally(() => {
          this.inFlight--;
          this.flush();
        });
    }
  }
}
