import { QuestionBatcher } from '../../src/areas/decisions/batcher';

describe('QuestionBatcher', () => {
  it('answers each question in order, batching those that arrive together, per environment', async () => {
    const calls: { env: string; qs: number[] }[] = [];
    const b = new QuestionBatcher<number>(async (env, qs) => {
      calls.push({ env, qs });
      return qs.map((q) => q % 2 === 0);
    }, 100, 1);
    const [x, y, z] = await Promise.all([b.ask('e1', [1, 2]), b.ask('e1', [4]), b.ask('e2', [3])]);
    expect(x).toEqual([false, true]);
    expect(y).toEqual([true]);
    expect(z).toEqual([false]);
    expect(calls).toEqual([{ env: 'e1', qs: [1, 2, 4] }, { env: 'e2', qs: [3] }]);
  });

  it('asks a batch to include the highest revision any of its questions needs', async () => {
    const calls: { qs: number[]; floor?: number }[] = [];
    const b = new QuestionBatcher<number>(async (_env, qs, floor) => {
      calls.push({ qs, floor });
      return qs.map(() => true);
    }, 100, 1);
    await Promise.all([b.ask('e', [1], 7), b.ask('e', [2]), b.ask('e', [3], 9), b.ask('e', [4], 8)]);
    await b.ask('e', [5]);
    expect(calls).toEqual([{ qs: [1, 2, 3, 4], floor: 9 }, { qs: [5], floor: undefined }]);
  });

  it('keeps batches within the size limit and the number of queries in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const sizes: number[] = [];
    const b = new QuestionBatcher<number>(async (_env, qs) => {
      inFlight++;
      most = Math.max(most, inFlight);
      sizes.push(qs.length);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      return qs.map(() => true);
    }, 10, 2);
    const answers = await Promise.all(Array.from({ length: 45 }, (_, i) => b.ask('e', [i])));
    expect(answers.flat()).toHaveLength(45);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(10);
    expect(sizes.reduce((a, n) => a + n, 0)).toBe(45);
    expect(most).toBeLessThanOrEqual(2);
  });

  it('rejects every question of a failed batch, and goes on with the next', async () => {
    let fail = true;
    const b = new QuestionBatcher<number>(async (_env, qs) => {
      if (fail) {
        fail = false;
        throw new Error('database down');
      }
      return qs.map(() => true);
    }, 100, 1);
    const first = Promise.all([b.ask('e', [1]), b.ask('e', [2])]);
    await expect(first).rejects.toThrow('database down');
    await expect(b.ask('e', [3])).resolves.toEqual([true]);
  });
});
