import { QuestionBatcher } from '../../src/areas/decisions/batcher';
import { AppError } from '../../src/errors';
import { FairQueue } from '../../src/util/fairQueue';

const slots = (global: number, perEnv = global, maxWaitMs = 5_000) => new FairQueue({ global, perEnv, maxWaitMs, maxQueuedPerEnv: 4 });

describe('QuestionBatcher', () => {
  it('answers each question in order, batching those that arrive together, per environment', async () => {
    const calls: { env: string; qs: number[] }[] = [];
    const b = new QuestionBatcher<number>(
      async (env, qs) => {
        calls.push({ env, qs });
        return qs.map((q) => q % 2 === 0);
      },
      slots(1),
      100,
    );
    const [x, y, z] = await Promise.all([b.ask('e1', [1, 2]), b.ask('e1', [4]), b.ask('e2', [3])]);
    expect(x).toEqual([false, true]);
    expect(y).toEqual([true]);
    expect(z).toEqual([false]);
    expect(calls).toEqual([
      { env: 'e1', qs: [1, 2, 4] },
      { env: 'e2', qs: [3] },
    ]);
  });

  it('asks a batch to include the highest revision any of its questions needs', async () => {
    const calls: { qs: number[]; floor?: number }[] = [];
    const b = new QuestionBatcher<number>(
      async (_env, qs, floor) => {
        calls.push({ qs, floor });
        return qs.map(() => true);
      },
      slots(1),
      100,
    );
    await Promise.all([b.ask('e', [1], 7), b.ask('e', [2]), b.ask('e', [3], 9), b.ask('e', [4], 8)]);
    await b.ask('e', [5]);
    expect(calls).toEqual([
      { qs: [1, 2, 3, 4], floor: 9 },
      { qs: [5], floor: undefined },
    ]);
  });

  it('keeps batches within the size limit and the number of queries in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const sizes: number[] = [];
    const b = new QuestionBatcher<number>(
      async (_env, qs) => {
        inFlight++;
        most = Math.max(most, inFlight);
        sizes.push(qs.length);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        return qs.map(() => true);
      },
      slots(2),
      10,
    );
    const answers = await Promise.all(Array.from({ length: 45 }, (_, i) => b.ask('e', [i])));
    expect(answers.flat()).toHaveLength(45);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(10);
    expect(sizes.reduce((a, n) => a + n, 0)).toBe(45);
    expect(most).toBeLessThanOrEqual(2);
  });

  it('rejects every question of a failed batch, and goes on with the next', async () => {
    let fail = true;
    const b = new QuestionBatcher<number>(
      async (_env, qs) => {
        if (fail) {
          fail = false;
          throw new Error('database down');
        }
        return qs.map(() => true);
      },
      slots(1),
      100,
    );
    const first = Promise.all([b.ask('e', [1]), b.ask('e', [2])]);
    await expect(first).rejects.toThrow('database down');
    await expect(b.ask('e', [3])).resolves.toEqual([true]);
  });

  it("gives another environment's question the next slot while one environment floods", async () => {
    const order: string[] = [];
    const gates: (() => void)[] = [];
    const b = new QuestionBatcher<number>(
      async (env, qs) => {
        order.push(`${env}:${qs.join(',')}`);
        await new Promise<void>((r) => gates.push(r));
        return qs.map(() => true);
      },
      slots(2, 2),
      1,
    );
    // The flood: five single-question batches of e1 (batch size 1), asked before e2's one question.
    const flood = Array.from({ length: 5 }, (_, i) => b.ask('e1', [i]));
    await new Promise((r) => setImmediate(r));
    const other = b.ask('e2', [99]);
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['e1:0', 'e1:1']);
    for (let i = 0; i < 2; i++) {
      gates.shift()!();
      await new Promise((r) => setImmediate(r));
    }
    // e1 had asked for its next slot first and gets it; the next one is e2's, before e1's other two.
    expect(order).toEqual(['e1:0', 'e1:1', 'e1:2', 'e2:99']);
    while (gates.length || order.length < 6) {
      gates.shift()?.();
      await new Promise((r) => setImmediate(r));
    }
    await expect(other).resolves.toEqual([true]);
    expect((await Promise.all(flood)).flat()).toHaveLength(5);
  });

  it('refuses with 429 the questions of an environment that found no slot within the wait', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const b = new QuestionBatcher<number>(
      async (_env, qs) => {
        await gate;
        return qs.map(() => true);
      },
      slots(1, 1, 50),
      100,
    );
    const first = b.ask('e', [1]);
    await new Promise((r) => setImmediate(r));
    const late = b.ask('e', [2]);
    const refused = await late.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS', retryAfterSeconds: 1 });
    open();
    await expect(first).resolves.toEqual([true]);
    // The slot is free again: the environment's next question is answered.
    await expect(b.ask('e', [3])).resolves.toEqual([true]);
  });

  describe('with a hold (DECISION_BATCH_HOLD_MS)', () => {
    const turn = () => new Promise((r) => setImmediate(r));
    /** A run whose batches answer only when told, recording each batch. */
    const gated = () => {
      const calls: { env: string; qs: number[] }[] = [];
      const gates: (() => void)[] = [];
      const run = async (env: string, qs: number[]) => {
        calls.push({ env, qs });
        await new Promise<void>((r) => gates.push(r));
        return qs.map((q) => q % 2 === 0);
      };
      return { calls, gates, run };
    };

    it("sends an environment's next questions together once its running batch answers, even with free slots", async () => {
      const { calls, gates, run } = gated();
      const b = new QuestionBatcher<number>(run, slots(4), 100, 1_000);
      const first = b.ask('e', [1]);
      await turn();
      const later = [b.ask('e', [2]), b.ask('e', [3])];
      await turn();
      const more = b.ask('e', [4]);
      await turn();
      // Four slots free, yet the questions that came while the first batch ran wait for it.
      expect(calls).toEqual([{ env: 'e', qs: [1] }]);
      gates[0]();
      await expect(first).resolves.toEqual([false]);
      await turn();
      expect(calls).toEqual([
        { env: 'e', qs: [1] },
        { env: 'e', qs: [2, 3, 4] },
      ]);
      gates[1]();
      expect(await Promise.all([...later, more])).toEqual([[true], [false], [true]]);
    });

    it('sends the questions a batch held before answering that batch (Neo4j walks them while the service answers)', async () => {
      const { calls, gates, run } = gated();
      const b = new QuestionBatcher<number>(run, slots(4), 100, 1_000);
      const callsWhenAnswered: number[] = [];
      const first = b.ask('e', [1]).then((a) => {
        callsWhenAnswered.push(calls.length);
        return a;
      });
      await turn();
      const held = b.ask('e', [2]);
      await turn();
      expect(calls).toHaveLength(1);
      gates[0]();
      expect(await first).toEqual([false]);
      // The held question was already on its way when the first batch's answer was given.
      expect(callsWhenAnswered).toEqual([2]);
      expect(calls[1]).toEqual({ env: 'e', qs: [2] });
      gates[1]();
      expect(await held).toEqual([true]);
      // With nothing held, a batch's answer is given at once: before a turn of the event loop asked after it answered.
      let turned = false;
      const alone = b.ask('e', [3]).then((a) => {
        callsWhenAnswered.push(calls.length);
        return { a, turned };
      });
      await turn();
      gates[2]();
      setImmediate(() => (turned = true));
      expect(await alone).toEqual({ a: [false], turned: false });
      expect(callsWhenAnswered).toEqual([2, 3]);
    });

    it('holds only its own environment: another goes at once', async () => {
      const { calls, gates, run } = gated();
      const b = new QuestionBatcher<number>(run, slots(4), 100, 1_000);
      const first = b.ask('e1', [1]);
      await turn();
      const other = b.ask('e2', [2]);
      await turn();
      expect(calls).toEqual([
        { env: 'e1', qs: [1] },
        { env: 'e2', qs: [2] },
      ]);
      gates.forEach((g) => g());
      await expect(Promise.all([first, other])).resolves.toEqual([[false], [true]]);
    });

    it('lets the waiting questions go when the running batch takes longer than the hold', async () => {
      const { calls, gates, run } = gated();
      const b = new QuestionBatcher<number>(run, slots(4), 100, 30);
      const slow = b.ask('e', [1]);
      await turn();
      const next = b.ask('e', [2]);
      await turn();
      expect(calls).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 60));
      expect(calls).toEqual([
        { env: 'e', qs: [1] },
        { env: 'e', qs: [2] },
      ]);
      gates[1]();
      await expect(next).resolves.toEqual([true]);
      gates[0]();
      await expect(slow).resolves.toEqual([false]);
    });

    it('sends a full batch at once, without waiting for the running one', async () => {
      const { calls, gates, run } = gated();
      const b = new QuestionBatcher<number>(run, slots(4), 3, 1_000);
      const first = b.ask('e', [1]);
      await turn();
      const partial = b.ask('e', [2, 3]);
      await turn();
      expect(calls).toHaveLength(1);
      const full = b.ask('e', [4]);
      await turn();
      await turn();
      expect(calls).toEqual([
        { env: 'e', qs: [1] },
        { env: 'e', qs: [2, 3, 4] },
      ]);
      gates.forEach((g) => g());
      await expect(Promise.all([first, partial, full])).resolves.toEqual([[false], [true, false], [true]]);
    });

    it('answers a failed batch with its error and still sends what waited', async () => {
      const calls: number[][] = [];
      let fail!: (e: Error) => void;
      const b = new QuestionBatcher<number>(
        async (_env, qs) => {
          calls.push(qs);
          if (calls.length === 1) await new Promise((_, reject) => (fail = reject));
          return qs.map(() => true);
        },
        slots(4),
        100,
        1_000,
      );
      const first = b.ask('e', [1]);
      await turn();
      const next = b.ask('e', [2]);
      await turn();
      fail(new Error('Neo4j went away'));
      await expect(first).rejects.toThrow('Neo4j went away');
      await expect(next).resolves.toEqual([true]);
      expect(calls).toEqual([[1], [2]]);
    });
  });
});
