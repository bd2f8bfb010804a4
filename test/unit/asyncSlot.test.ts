import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
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

  it('runs no promise hook while no run is in progress (a check pays nothing for the slots)', () => {
    // Promise hooks are the whole process's: any storage another test file left enabled in this jest
    // worker turns them on. So the module runs alone in a child process, transpiled as ts-jest does.
    // With Node's promise hooks on, the code after an await runs under its promise's own async id.
    const source = readFileSync(join(__dirname, '../../src/util/asyncSlot.ts'), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    });
    const child = `
      const m = { exports: {} };
      new Function('module', 'exports', 'require', ${JSON.stringify(outputText)})(m, m.exports, require);
      const { executionAsyncId } = require('node:async_hooks');
      const ids = async () => {
        const before = executionAsyncId();
        await Promise.resolve();
        return executionAsyncId() === before ? 'same id' : 'new id';
      };
      const a = m.exports.asyncSlot();
      (async () => {
        // Each look from a timer's callback (the script's own top level has no async id to keep).
        await new Promise((r) => setTimeout(r, 1));
        const seen = [await ids(), await a.run('on', ids)];
        await new Promise((r) => setTimeout(r, 1));
        seen.push(await ids());
        process.stdout.write(JSON.stringify(seen));
      })();`;
    const seen = JSON.parse(execFileSync(process.execPath, ['-e', child], { encoding: 'utf8' }));
    // Before any run, inside one, and after every run has ended.
    expect(seen).toEqual(['same id', 'new id', 'same id']);
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
