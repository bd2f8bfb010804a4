import { AppError } from '../../src/errors';
import { FairQueue } from '../../src/util/fairQueue';

const tick = () => new Promise((r) => setImmediate(r));

function queue(o: Partial<{ perEnv: number; global: number; maxWaitMs: number; maxQueuedPerEnv: number; waitAlone: boolean }> = {}) {
  const refused: string[] = [];
  const q = new FairQueue({
    perEnv: 2,
    global: 3,
    maxWaitMs: 5_000,
    maxQueuedPerEnv: 10,
    ...o,
    onRefused: (env, reason) => refused.push(`${env}:${reason}`),
  });
  return { q, refused };
}

/** Asks a slot and records the order in which slots are given. */
function take(q: FairQueue, env: string, given: string[], label = env) {
  return q.acquire(env).then((release) => {
    given.push(label);
    return release;
  });
}

describe('FairQueue (admission per environment, docs/behaviour.md section 15)', () => {
  it('lets an environment alone use every slot, refusing nothing up to the global bound', async () => {
    const { q, refused } = queue({ perEnv: 1, global: 4, maxWaitMs: 20, waitAlone: true });
    const releases = await Promise.all([1, 2, 3, 4].map(() => q.acquire('a')));
    expect(q.active('a')).toBe(4);
    // Past the global bound it waits, and is not refused for waiting while no other environment wants a slot.
    const fifth = q.acquire('a');
    await new Promise((r) => setTimeout(r, 80));
    expect(q.queued('a')).toBe(1);
    releases[0]();
    releases.push(await fifth);
    expect(q.active('a')).toBe(4);
    expect(refused).toEqual([]);
    for (const r of releases) r();
    expect(q.active()).toBe(0);
  });

  it('bounds a flooding environment to its share once another environment waits', async () => {
    const { q } = queue({ perEnv: 2, global: 4 });
    const given: string[] = [];
    const a = Array.from({ length: 8 }, (_, i) => take(q, 'a', given, `a${i}`));
    await tick();
    expect(given).toEqual(['a0', 'a1', 'a2', 'a3']);
    const b = [take(q, 'b', given, 'b0'), take(q, 'b', given, 'b1'), take(q, 'b', given, 'b2')];
    await tick();
    // Each slot a frees goes to b while b is under its bound, though a asked first.
    (await a[0])();
    await tick();
    (await a[1])();
    await tick();
    expect(given).toEqual(['a0', 'a1', 'a2', 'a3', 'b0', 'b1']);
    expect([q.active('a'), q.active('b')]).toEqual([2, 2]);
    // Both at their bound: the next slot goes to whoever runs fewer (then in turn), so neither starves.
    (await a[2])();
    await tick();
    expect(given.at(-1)).toBe('a4');
    (await b[0])();
    await tick();
    expect(given.at(-1)).toBe('b2');
    expect([q.active('a'), q.active('b')]).toEqual([2, 2]);
    // b done: a takes every slot again.
    for (const r of [b[1], b[2]]) (await r)();
    await tick();
    expect(q.active('a')).toBe(4);
    for (const r of a.slice(3)) {
      (await r)();
      await tick();
    }
    expect(q.active()).toBe(0);
  });

  it('refuses a waiting environment past the wait once another environment wants slots (waitAlone)', async () => {
    const { q, refused } = queue({ perEnv: 1, global: 1, maxWaitMs: 30, waitAlone: true });
    const held = await q.acquire('a');
    const a2 = q.acquire('a');
    await new Promise((r) => setTimeout(r, 60));
    expect(refused).toEqual([]);
    const b1 = q.acquire('b');
    await expect(a2).rejects.toMatchObject({ status: 429 });
    expect(refused).toEqual(['a:timeout']);
    held();
    (await b1)();
    expect(q.active()).toBe(0);
  });

  it('hands freed slots to waiting environments in turn, not in arrival order', async () => {
    const { q } = queue({ perEnv: 1, global: 1 });
    const given: string[] = [];
    const releases = new Map<string, Promise<() => void>>();
    const ask = (env: string, label: string) => releases.set(label, take(q, env, given, label));
    ask('a', 'a0');
    await tick();
    // a floods first; b and c ask one each afterwards.
    for (const label of ['a1', 'a2', 'a3']) ask('a', label);
    ask('b', 'b1');
    ask('c', 'c1');
    for (let i = 0; i < 6; i++) {
      (await releases.get(given[given.length - 1])!)();
      await tick();
    }
    expect(given).toEqual(['a0', 'a1', 'b1', 'c1', 'a2', 'a3']);
    expect(q.active()).toBe(0);
  });

  it('refuses with 429 and Retry-After a caller that waited past the bound, and counts it', async () => {
    const { q, refused } = queue({ perEnv: 1, global: 1, maxWaitMs: 30 });
    const release = await q.acquire('a');
    const started = Date.now();
    const err = await q.acquire('a').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS', retryAfterSeconds: 1 });
    expect(refused).toEqual(['a:timeout']);
    expect(q.queued()).toBe(0);
    release();
    // The refused caller holds nothing: the next one is admitted at once.
    (await q.acquire('b'))();
    expect(q.active()).toBe(0);
  });

  it('refuses at once past the number of waiting callers of one environment, not those of another', async () => {
    const { q, refused } = queue({ perEnv: 1, global: 1, maxQueuedPerEnv: 2 });
    const release = await q.acquire('a');
    const waiting = [q.acquire('a'), q.acquire('a')];
    await expect(q.acquire('a')).rejects.toMatchObject({ status: 429 });
    expect(refused).toEqual(['a:queue_full']);
    const other = q.acquire('b');
    expect(q.queued('b')).toBe(1);
    release();
    (await waiting[0])();
    (await other)();
    (await waiting[1])();
    expect(q.active()).toBe(0);
  });

  it('frees a slot once however often its release is called', async () => {
    const { q } = queue({ perEnv: 2, global: 2 });
    const r1 = await q.acquire('a');
    const r2 = await q.acquire('a');
    r1();
    r1();
    expect(q.active('a')).toBe(1);
    r2();
    expect(q.active()).toBe(0);
  });

  it('run() frees the slot when the work fails', async () => {
    const { q } = queue({ perEnv: 1, global: 1 });
    await expect(q.run('a', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(q.run('a', async () => 42)).resolves.toBe(42);
    expect(q.active()).toBe(0);
  });
});
