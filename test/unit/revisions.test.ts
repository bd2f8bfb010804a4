import { Revisions } from '../../src/areas/decisions/revisions';
import { RevisionsStore } from '../../src/areas/decisions/revisionsStore';
import type { Db, Row } from '../../src/db/db';

/** A database whose revision reads finish when the test says so; each read answers the revision at the moment it started. */
function fakeDb() {
  let revision = 1;
  const reads: { startedAt: number; finish: () => void }[] = [];
  const db = {
    statements: (names: Record<string, string>) => names,
    readOnce: (_stmt: unknown, params: { envId: string | null }): Promise<Row[]> => {
      const startedAt = revision;
      return new Promise((ok) =>
        reads.push({
          startedAt,
          finish: () => ok(params.envId === null ? [{ env: 'e', revision: startedAt }] : [{ revision: startedAt }]),
        }),
      );
    },
  } as unknown as Db & { readRows: unknown };
  (db as { readRows: unknown }).readRows = (db as unknown as { readOnce: unknown }).readOnce;
  return { db, reads, write: () => ++revision };
}
const tick = () => new Promise((ok) => setImmediate(ok));

describe('Revisions.latest', () => {
  it('answers from a read started after the call: a write committed before it is always included', async () => {
    const { db, reads, write } = fakeDb();
    const revs = new Revisions(new RevisionsStore(db));
    const first = revs.latest('e');
    await tick();
    expect(reads).toHaveLength(1);
    write(); // committed while the first read runs: the first answer may miss it, a later question may not
    const second = revs.latest('e');
    reads[0].finish();
    expect(await first).toBe(1);
    await tick();
    expect(reads).toHaveLength(2);
    reads[1].finish();
    expect(await second).toBe(2);
  });

  it('makes the questions that arrive during a read share the next one (one read in flight per environment)', async () => {
    const { db, reads } = fakeDb();
    const revs = new Revisions(new RevisionsStore(db));
    const first = revs.latest('e');
    await tick();
    const waiting = [revs.latest('e'), revs.latest('e'), revs.latest('e')];
    await tick();
    expect(reads).toHaveLength(1); // still one: the others wait for it to end, then share one read
    reads[0].finish();
    await first;
    await tick();
    expect(reads).toHaveLength(2);
    reads[1].finish();
    expect(await Promise.all(waiting)).toEqual([1, 1, 1]);
    expect(revs.known('e')).toBe(1);
  });
});
