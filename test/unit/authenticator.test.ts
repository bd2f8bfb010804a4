import type { Context } from 'koa';
import type { KeyLookup, ScopeRow } from '../../src/auth/types';
import { BearerAuthenticator } from '../../src/http/authenticator';
import { hashSecret } from '../../src/auth/secrets';
import type { RouteDef } from '../../src/http/routeTable';

/** A store whose key lookups finish when the test says so; each answers the graph as it was when the lookup started. */
function fakeStore() {
  const graph = { keyValid: true, revision: 7 };
  const lookups: { finish: () => void }[] = [];
  const store = {
    resolveScope: (hash: string): Promise<ScopeRow> => {
      const seen = { ...graph };
      return new Promise((ok) =>
        lookups.push({
          finish: () =>
            ok({
              key: seen.keyValid ? { id: 'k1', hash, access_level: 'read', env_id: 'e1', project_id: 'p1' } : null,
              project: { id: 'p1', key: 'proj', org_id: 'o' },
              environment: { id: 'e1', key: 'env', revision: seen.revision },
            }),
        }),
      );
    },
  } as unknown as KeyLookup;
  return { store, lookups, graph };
}

const route = {
  method: 'POST',
  path: '/v2/allowed/:proj_id/:env_id',
  auth: 'env',
  readOnly: true,
  summary: '',
  schemas: {},
  handler: async () => ({}),
} as RouteDef;
const ctx = { get: (h: string) => (h === 'authorization' ? 'Bearer secret_1' : '') } as unknown as Context;
const params = { proj_id: 'proj', env_id: 'env' };
const tick = () => new Promise((ok) => setImmediate(ok));

describe('BearerAuthenticator: one key lookup for the requests that arrive together', () => {
  it('shares a lookup among requests with the same key and path, and gives each the revision it read', async () => {
    const { store, lookups } = fakeStore();
    const auth = new BearerAuthenticator({ keys: store, adminKeyHash: hashSecret('admin'), orgId: 'o' });
    const asked = [auth.authenticate(ctx, route, params), auth.authenticate(ctx, route, params), auth.authenticate(ctx, route, params)];
    await tick();
    expect(lookups).toHaveLength(1);
    lookups[0].finish();
    const answers = await Promise.all(asked);
    expect(answers.map((a) => a.scope?.revision)).toEqual([7, 7, 7]);
    expect(answers[0].principal).toEqual({ kind: 'env', keyId: 'k1', projectId: 'p1', envId: 'e1', accessLevel: 'read' });
  });

  it('never answers a request from a lookup that started before it arrived: a revoke committed meanwhile refuses it', async () => {
    const { store, lookups, graph } = fakeStore();
    const auth = new BearerAuthenticator({ keys: store, adminKeyHash: hashSecret('admin'), orgId: 'o' });
    const first = auth.authenticate(ctx, route, params);
    await tick();
    graph.keyValid = false; // revoked through another replica while the first lookup runs
    graph.revision = 8;
    const second = auth.authenticate(ctx, route, params);
    lookups[0].finish();
    expect((await first).scope?.revision).toBe(7);
    await tick();
    expect(lookups).toHaveLength(2);
    lookups[1].finish();
    await expect(second).rejects.toMatchObject({ status: 401 });
  });
});

describe('BearerAuthenticator while the database hangs', () => {
  it('fails the requests that waited for a failed lookup with it, instead of making them wait for another', async () => {
    const failures: ((err: Error) => void)[] = [];
    const store = { resolveScope: () => new Promise((_, fail) => failures.push(fail)) } as unknown as KeyLookup;
    const auth = new BearerAuthenticator({ keys: store, adminKeyHash: hashSecret('admin'), orgId: 'o' });
    const first = auth.authenticate(ctx, route, params);
    await tick();
    const waiting = auth.authenticate(ctx, route, params);
    failures[0](new Error('timeout'));
    await expect(first).rejects.toThrow('timeout');
    await expect(waiting).rejects.toThrow('timeout');
    expect(failures).toHaveLength(1);
  });
});
