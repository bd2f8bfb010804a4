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
});
