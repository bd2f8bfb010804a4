import { SecretGate } from '../../src/auth/secretGate';
import { isBulk, nestsDeeperThan } from '../../src/http/bodies';
import type { RouteDef } from '../../src/http/routeTable';

describe('nestsDeeperThan (JSON_MAX_DEPTH)', () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  it('counts arrays and objects, not brackets in strings or escaped quotes', () => {
    expect(nestsDeeperThan(deep(32), 32)).toBe(false);
    expect(nestsDeeperThan(deep(33), 32)).toBe(true);
    expect(nestsDeeperThan(`{"a":${deep(31)}}`, 32)).toBe(false);
    expect(nestsDeeperThan(`{"a":${deep(32)}}`, 32)).toBe(true);
    expect(nestsDeeperThan(JSON.stringify({ s: '[[[[{{{{\\"[[[[' }), 2)).toBe(false);
    expect(nestsDeeperThan(Buffer.from(`{"é€":"[[","x":${deep(3)}}`), 3)).toBe(true);
    expect(nestsDeeperThan(Buffer.from(`{"é€":"[[","x":${deep(2)}}`), 3)).toBe(false);
  });
  it('takes a body 1,000,000 levels deep without recursion', () => {
    expect(nestsDeeperThan(deep(1_000_000), 32)).toBe(true);
  });
});

describe('isBulk', () => {
  const r = (path: string | string[]) => ({ path }) as unknown as RouteDef;
  it('is a route with a bulk segment', () => {
    expect(isBulk(r('/v2/allowed/:proj_id/:env_id/bulk'))).toBe(true);
    expect(isBulk(r('/v2/facts/:proj_id/:env_id/bulk/users'))).toBe(true);
    expect(isBulk(r('/v2/facts/:proj_id/:env_id/users'))).toBe(false);
    expect(isBulk(r('/v2/facts/:proj_id/:env_id/users/:bulk_id'))).toBe(false);
  });
});

describe('SecretGate', () => {
  it('remembers failures for their TTL, and bounds lookups of digests not seen to succeed', async () => {
    const gate = new SecretGate({ failureTtlMs: 50, lookupsInFlight: 1, waitMs: 20 });
    gate.learn('bad', false);
    expect(gate.failedRecently('bad')).toBe(true);
    await new Promise((ok) => setTimeout(ok, 60));
    expect(gate.failedRecently('bad')).toBe(false);

    let release!: () => void;
    const held = gate.lookup('a', () => new Promise<void>((ok) => (release = ok)));
    await expect(gate.lookup('b', async () => 'b')).rejects.toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS', retryAfterSeconds: 1 });
    gate.learn('good', true);
    await expect(gate.lookup('good', async () => 'served')).resolves.toBe('served'); // known: not held by the bound
    const waiting = gate.lookup('c', async () => 'c');
    release();
    await held;
    await expect(waiting).resolves.toBe('c');
  });
});
