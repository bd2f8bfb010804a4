import type { Scope } from '../../src/auth/types';
import type { ReadStream, Statement } from '../../src/db/db';
import { parseLine } from '../../src/areas/snapshots/format';
import { SnapshotService } from '../../src/areas/snapshots/service';
import type { SnapshotStore } from '../../src/areas/snapshots/store';

/**
 * The export's one-revision rule and the import's line checks (docs/behaviour.md section 16), without a
 * database: the export holds its environment's writers (cypher/export/holdWriters.cypher), reads
 * its rows at the revision that statement answers, names it in the header and the end line, and
 * lets the writers go (the transaction is closed) whatever happens; an environment that takes longer
 * than EXPORT_HOLD_MS to read is exported again without holding its writers, its revision checked at
 * the end. An import line may only create the records an export holds.
 */
const scope: Scope = { orgId: 'o', projectId: 'p', projectKey: 'proj', envId: 'e', envKey: 'env' };
const stmt = (name: string) => ({ name, text: '', writes: false, invalidates: null, changes: null }) as Statement;

function storeWith(revision: number, o: { nodes?: number; slowMs?: number; fail?: Error; movedTo?: number } = {}) {
  const q = { holdWriters: stmt('holdWriters'), revision: stmt('revision'), nodes: stmt('nodes'), relationships: stmt('relationships') };
  let revisionReads = 0;
  const log: string[] = [];
  const stream: ReadStream = {
    async *rows(s: Statement) {
      log.push(s.name);
      if (s === q.holdWriters) yield { revision } as never;
      // The streamed export reads the revision first and last: `movedTo` is what a write made it meanwhile.
      if (s === q.revision) yield { revision: revisionReads++ === 0 ? revision : (o.movedTo ?? revision) } as never;
      if (s === q.nodes) {
        for (let i = 0; i < (o.nodes ?? 1); i++) {
          if (o.slowMs) await new Promise((r) => setTimeout(r, o.slowMs));
          yield { labels: ['User'], props: { id: `u${i}`, key: `ann${i}`, env: null, pad: 'x'.repeat(2000) } } as never;
        }
        if (o.fail) throw o.fail;
      }
      if (s === q.relationships) yield { type: 'HAS_TENANT_ROLE', from: 'u0', to: 't1', props: { role: 'admin' } } as never;
    },
    async one(s: Statement, p: Record<string, unknown>) {
      for await (const r of stream.rows(s, p)) return r as never;
      return undefined;
    },
    close: async () => void log.push('close'),
  };
  return { store: { q, openHeld: async () => stream, openRead: async () => ((o.slowMs = 0), stream) } as unknown as SnapshotStore, log };
}

async function linesOf(store: SnapshotStore, holdMs = 1000) {
  let text = '';
  for await (const chunk of await new SnapshotService(store, 1024, holdMs).exportStream(scope)) text += chunk;
  return text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

describe('export', () => {
  it('reads at the revision it holds, names it in the header and the end line, and lets the writers go before answering', async () => {
    const { store, log } = storeWith(7);
    const lines = await linesOf(store);
    expect(lines.map((l) => l.type)).toEqual(['header', 'node', 'relationship', 'end']);
    expect(lines[0]).toMatchObject({ revision: 7, environment: { id: 'e', key: 'env' } });
    expect(lines[1]).toMatchObject({ type: 'node', kind: 'user', labels: ['User'], props: { id: 'u0', key: 'ann0' } });
    expect(lines[3]).toEqual({ type: 'end', revision: 7, nodes: 1, relationships: 1 });
    expect(log).toEqual(['holdWriters', 'nodes', 'relationships', 'close']);
  });

  it('lets the writers go past EXPORT_HOLD_MS, then streams the environment without holding them, at one revision', async () => {
    const { store, log } = storeWith(7, { nodes: 200, slowMs: 1 });
    const lines = await linesOf(store, 20);
    expect(log.slice(0, 2)).toEqual(['holdWriters', 'nodes']);
    // The held read was closed before the streamed one began.
    expect(log.indexOf('close')).toBeLessThan(log.indexOf('revision'));
    expect(lines[0]).toMatchObject({ type: 'header', revision: 7 });
    expect(lines.at(-1)).toEqual({ type: 'end', revision: 7, nodes: 200, relationships: 1 });
    expect(log.at(-1)).toBe('close');
  });

  it('ends a streamed export with an error line, not the end line, when a write moved the revision meanwhile', async () => {
    const { store } = storeWith(7, { nodes: 200, slowMs: 1, movedTo: 8 });
    const lines = await linesOf(store, 20);
    expect(lines.at(-1)).toMatchObject({ type: 'error', message: expect.stringContaining('revision 7, then 8') });
    expect(lines.some((l) => l.type === 'end')).toBe(false);
  });

  it('lets the writers go when the read fails', async () => {
    const { store, log } = storeWith(7, { fail: new Error('boom') });
    await expect(linesOf(store)).rejects.toThrow('boom');
    expect(log.at(-1)).toBe('close');
  });
});

describe('import lines', () => {
  const node = (labels: string[], props: Record<string, unknown> = { id: 'x', key: 'k' }) =>
    JSON.stringify({ type: 'node', labels, props });

  it('creates only the records an export holds: no key, session, environment or unknown label', () => {
    for (const labels of [['ApiKey'], ['Session'], ['Environment'], ['User', 'ApiKey'], ['LoginCode'], ['User', 'Tenant'], []]) {
      expect(() => parseLine(node(labels), 3)).toThrow(/line 3: labels/);
    }
    expect(parseLine(node(['Instance', 'Group']), 3)).toMatchObject({ type: 'node', row: { labels: ['Instance', 'Group', 'InEnv'] } });
  });

  it('takes no environment, secret or internal property from the stream, and stores whole numbers as integers', () => {
    const line = parseLine(
      node(['ElementsConfig'], { id: 'c', key: 'ops', env: 'other', webhook_secret: 's', webhook_bearer_token: 'b', n: 3, f: 1.5 }),
      1,
    );
    expect(line.type === 'node' && Object.keys(line.row.props).sort()).toEqual(['f', 'id', 'key', 'n']);
    expect(line.type === 'node' && String(line.row.props.n)).toBe('3');
    expect(line.type === 'node' && line.row.props.f).toBe(1.5);
  });

  it('refuses links of other types, records without an id, nested values and bad JSON, naming the line', () => {
    expect(() => parseLine(JSON.stringify({ type: 'relationship', rel: 'HAS_ENV', from: 'a', to: 'b' }), 9)).toThrow(/line 9: "rel"/);
    expect(() => parseLine(node(['User'], { key: 'k' }), 2)).toThrow(/needs its "id"/);
    expect(() => parseLine(node(['User'], { id: 'x', a: { b: 1 } }), 2)).toThrow(/a property is/);
    expect(() => parseLine('{"type":"node"', 5)).toThrow(/line 5 is not JSON/);
  });
});
