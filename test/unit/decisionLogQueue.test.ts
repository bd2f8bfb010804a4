import type { Db } from '../../src/db/db';
import { DecisionLog } from '../../src/areas/decisionLog/log';

/** The decision log's queue is bounded: past it, entries are dropped and counted, never queued. */
const check = { user: 'u', action: 'read', type: 'doc', key: null, tenant: null };

/**
 * Records, for each write (one transaction), the sizes of the batches it stores (the queue's
 * behaviour, not the storage: test/http/decision-log.test.ts).
 */
function fakeDb(written: number[][], fail = false): Db {
  return { statement: () => ({ name: 'decisionLog/insertDecisionLogs', text: '', writes: true, invalidates: null, changes: null }),
    writeRows: async (_s: unknown, p: { batches: { n: number; env: string }[] }) => {
      if (fail) throw new Error('Neo4j is down');
      written.push(p.batches.map((b) => b.n));
      return [];
    } } as unknown as Db;
}

it('drops and counts what does not fit, writes the rest in one transaction of batches', async () => {
  const written: number[][] = [];
  let dropped = 0;
  const log = new DecisionLog(fakeDb(written), { sample: 1, queueMax: 5, batchSize: 2, onDrop: () => dropped++ });
  for (let i = 0; i < 8; i++) log.offer('env', check, i % 2 === 0);
  expect(dropped).toBe(3);
  await log.flush();
  expect(written).toEqual([[2, 2, 1]]);
  log.offer('env', check, true);
  expect(dropped).toBe(3);
  await log.flush();
  expect(written).toEqual([[2, 2, 1], [1]]);
});

it('keeps each environment in batches of its own, and writes nothing when nothing is queued', async () => {
  const written: number[][] = [];
  const log = new DecisionLog(fakeDb(written), { sample: 1, batchSize: 2 });
  for (const env of ['a', 'b', 'a', 'a', 'b']) log.offer(env, check, true);
  await log.flush();
  await log.flush();
  expect(written).toEqual([[2, 1, 2]]);
});

it('counts the entries of a write that failed as dropped, and queues new ones afresh', async () => {
  let dropped = 0;
  const log = new DecisionLog(fakeDb([], true), { sample: 1, onDrop: () => dropped++ });
  for (let i = 0; i < 4; i++) log.offer('env', check, true);
  await log.flush();
  expect(dropped).toBe(4);
  const written: number[][] = [];
  const again = new DecisionLog(fakeDb(written), { sample: 1 });
  again.offer('env', check, true);
  await again.flush();
  expect(written).toEqual([[1]]);
});

it('writes one flush at a time: a flush during a write (shutdown) waits for it, then writes what came meanwhile', async () => {
  const written: number[][] = [];
  let release!: () => void;
  const slow = { statement: () => ({ name: 'decisionLog/insertDecisionLogs', text: '', writes: true, invalidates: null, changes: null }),
    writeRows: async (_s: unknown, p: { batches: { n: number }[] }) => {
      if (written.length === 0) await new Promise<void>((ok) => (release = ok));
      written.push(p.batches.map((b) => b.n));
      return [];
    } } as unknown as Db;
  const log = new DecisionLog(slow, { sample: 1 });
  log.offer('env', check, true);
  const first = log.flush();
  log.offer('env', check, true);
  log.offer('env', check, false);
  const second = log.flush();
  // The first write has reached the database (its entries are packed off the event loop first).
  while (!release) await new Promise((ok) => setTimeout(ok, 1));
  expect(written).toEqual([]);
  release();
  await Promise.all([first, second]);
  expect(written).toEqual([[1], [2]]);
});

it('samples: at 0 nothing is queued', async () => {
  const written: number[][] = [];
  const log = new DecisionLog(fakeDb(written), { sample: 0 });
  for (let i = 0; i < 100; i++) log.offer('env', check, true);
  await log.flush();
  expect(written).toEqual([]);
});
