import type { Scope } from '../../src/auth/types';
import type { ReadStream, Statement } from '../../src/db/db';
import { parseLine } from '../../src/areas/snapshots/format';
import { SnapshotService } from '../../src/areas/snapshots/service';
import type { SnapshotStore } from '../../src/areas/snapshots/store';

/**
 * The export's one-revision rule and the import's line checks (docs/behaviour.md section 16), without a
 * database: the export reads the environment's revision before and after its rows, in the same
 * transaction, and ends with an error line (no end line, so no import takes it) when a write
 * landed meanwhile; an import line may only create the records an export holds.
 */
const scope: Scope = { orgId: 'o', projectId: 'p', projectKey: 'proj', envId: 'e', envKey: 'env' };
const stmt = (name: string) => ({ name, text: '', writes: false, invalidates: null, changes: null }) as Statement;

function storeWith(revisions: number[]): SnapshotStore {
  const q = { revision: stmt('revision'), nodes: stmt('nodes'), relationships: stmt('relationships') };
  let reads = 0;
  const stream: ReadStream = {
    async *rows(s: Statement) {
      if (s === q.revision) yield { revision: revisions[Math.min(reads++, revisions.length - 1)] } as never;
      if (s === q.nodes) yield { labels: ['User'], props: { id: 'u1', key: 'ann', env: null } } as never;
      if (s === q.relationships) yield { type: 'HAS_TENANT_ROLE', from: 'u1', to: 't1', props: { role: 'admin' } } as never;
    },
    async one(s: Statement, p: Record<string, unknown>) {
      for await (const r of stream.rows(s, p)) return r as never;
      return undefined;
    },
    close: async () => undefined,
  };
  return { q, openRead: async () => stream } as unknown as SnapshotStore;
}

async function linesOf(revisions: number[]) {
  let text = '';
  for await (const chunk of await new SnapshotService(storeWith(revisions), 1024).exportStream(scope)) text += chunk;
  return text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

describe('export', () => {
  it('ends with the end line when the revision is the same before and after', async () => {
    const lines = await linesOf([7, 7]);
    expect(lines.map((l) => l.type)).toEqual(['header', 'node', 'relationship', 'end']);
    expect(lines[0]).toMatchObject({ revision: 7, environment: { id: 'e', key: 'env' } });
    expect(lines[1]).toEqual({ type: 'node', kind: 'user', labels: ['User'], props: { id: 'u1', key: 'ann' } });
    expect(lines[3]).toEqual({ type: 'end', revision: 7, nodes: 1, relationships: 1 });
  });

  it('ends with an error line, and no end line, when a write moved the revision meanwhile', async () => {
    const lines = await linesOf([7, 8]);
    expect(lines.map((l) => l.type)).toEqual(['header', 'node', 'relationship', 'error']);
    expect(lines[3].message).toContain('changed while it was exported (revision 7, then 8)');
    expect(() => parseLine(JSON.stringify(lines[3]), 4)).toThrow(/export again/);
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
