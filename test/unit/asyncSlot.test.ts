import { asyncSlot } from '../../src/util/asyncSlot';

describe('asyncSlot (values carried down awaits, one storage for all)', () => {
  const a = asyncSlot<string>();
  const b = asyncSlot<number>();

  it('holds a value down the awaits of its run, and nothing outside', async () => {
    expect(a.get()).toBeUndefined();
    const seen = await a.run('x', async () => {
      await new Promise((r) => setTimeout(r, 1));
      return a.get();
    });
    expect(seen).toBe('x');
    expect(a.get()).toBeUndefined();
  });

  it('keeps the other slots of the frame it runs in, and an inner run of one slot leaves the outer value after it', async () => {
    const out = await a.run('outer', () =>
      b.run(1, async () => {
        const inner = await a.run('inner', async () => [a.get(), b.get()]);
        await Promise.resolve();
        return { inner, after: [a.get(), b.get()] };
      }),
    );
    expect(out).toEqual({ inner: ['inner', 1], after: ['outer', 1] });
  });

  it('keeps concurrent runs apart', async () => {
    const one = a.run('one', async () => {
      await new Promise((r) => setTimeout(r, 5));
      return a.get();
    });
    const two = a.run('two', async () => {
      await new Promise((r) => setTimeout(r, 1));
      return a.get();
    });
    expect(await Promise.all([one, two])).toEqual(['one', 'two']);
  });
});
