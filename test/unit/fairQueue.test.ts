import { AppError } from '../../src/errors';
import { FairQueue } from '../../src/util/fairQueue';

const tick = () => new Promise((r) => setImmediate(r));

function queue(o: Partial<{ perEnv: number; global: number; maxWaitMs: number; maxQueuedPerEnv: number }> = {}) {
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
  it('keeps one environment within its bound and all within the global one', async () => {
    const { q } = queue({ perEnv: 2, global: 3 });
    const given: string[] = [];
    const a = [take(q, 'a', given, 'a1'), take(q, 'a', given, 'a2'), take(q, 'a', given, 'a3')];
    const b = [take(q, 'b', given, 'b1'), take(q, 'b', given, 'b2')];
    await tick();
    expect(given).toEqual(['a1', 'a2', 'b1']);
    expect(q.active('a')).toBe(2);
    expect(q.active()).toBe(3);
    expect(q.queued()).toBe(2);
    // a1 ends: a3's line came before b2's, so a goes first; then b's turn.
    (await a[0])();
    await tick();
    expect(given).toEqual(['a1', 'a2', 'b1', 'a3']);
    (await b[0])();
    await tick();
    expect(given).toEqual(['a1', 'a2', 'b1', 'a3', 'b2']);
    for (const r of [a[1], a[2], b[1]]) (await r)();
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
