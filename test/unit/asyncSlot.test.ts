import { executionAsyncId } from 'node:async_hooks';
import { asyncSlot, keepSlotsFor } from '../../src/util/asyncSlot';

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

  it('keeps the value of a run after another run ends before it (the storage stays on while any run is in progress)', async () => {
    let endShort!: () => void;
    const short = a.run('short', () => new Promise<void>((r) => (endShort = r)));
    const long = b.run(7, async () => {
      await new Promise((r) => setTimeout(r, 1));
      endShort();
      await short;
      await new Promise((r) => setTimeout(r, 1));
      return [a.get(), b.get()];
    });
    expect(await long).toEqual([undefined, 7]);
  });

  it('ends a run whose function throws or rejects, and the next run still carries its value', async () => {
    expect(() =>
      a.run('thrown', () => {
        throw new Error('sync');
      }),
    ).toThrow('sync');
    await expect(a.run('rejected', async () => Promise.reject(new Error('async')))).rejects.toThrow('async');
    expect(a.get()).toBeUndefined();
    expect(
      await a.run('next', async () => {
        await Promise.resolve();
        return a.get();
      }),
    ).toBe('next');
  });

  it('runs no promise hook while no run is in progress (a check pays nothing for the slots)', async () => {
    // With Node's promise hooks on, the code after an await runs under its promise's own async id.
    const idsAcrossAnAwait = async () => {
      const before = executionAsyncId();
      await Promise.resolve();
      return executionAsyncId() === before ? 'same id' : 'new id';
    };
    expect(await a.run('on', idsAcrossAnAwait)).toBe('new id');
    await new Promise((r) => setTimeout(r, 1));
    expect(await idsAcrossAnAwait()).toBe('same id');
  });

  it('keeps the slots for work that outlives its run when the run hands it to keepSlotsFor (a write past the deadline of its caller)', async () => {
    let outlived!: Promise<string | undefined>;
    await a.run('writer', async () => {
      outlived = keepSlotsFor(
        (async () => {
          await new Promise((r) => setTimeout(r, 5));
          return a.get();
        })(),
      );
    });
    // The run has ended and no other is in progress; the work it handed over still reads its value.
    expect(await outlived).toBe('writer');
    expect(a.get()).toBeUndefined();
  });
});
