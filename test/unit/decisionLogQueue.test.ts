import type { Db } from '../../src/db/db';
import { DecisionLog } from '../../src/areas/decisionLog/log';

/** The decision log's queue is bounded: past it, entries are dropped and counted, never queued. */
const check = { user: 'u', action: 'read', type: 'doc', key: null, tenant: null };

/** Records the size of each batch the log writes (the queue's behaviour, not the storage: test/http/decision-log.test.ts). */
function fakeDb(written: number[]): Db {
  return { statement: () => ({ name: 'decisionLog/insertDecisionLogs', text: '', writes: true, invalidates: null }),
    writeRows: async (_s: unknown, p: { n: number }) => { written.push(p.n); return []; } } as unknown as Db;
}

it('drops and counts what does not fit, writes the rest in batches', async () => {
  const written: number[] = [];
  let dropped = 0;
  const log = new DecisionLog(fakeDb(written), { sample: 1, queueMax: 5, batchSize: 2, onDrop: () => dropped++ });
  for (let i = 0; i < 8; i++) log.offer('env', check, i % 2 === 0);
  expect(dropped).toBe(3);
  await log.flush();
  expect(written).toEqual([2, 2, 1]);
  log.offer('env', check, true);
  expect(dropped).toBe(3);
});

it('samples: at 0 nothing is queued', async () => {
  const written: number[] = [];
  const log = new DecisionLog(fakeDb(written), { sample: 0 });
  for (let i = 0; i < 100; i++) log.offer('env', check, true);
  await log.flush();
  expect(written).toEqual([]);
});
