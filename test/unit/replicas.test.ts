import type { Db, Row } from '../../src/db/db';
import { LIVE_MS, Replicas, VIEW_VALID_MS } from '../../src/db/replicas';

/** A registry on a clock the test moves, whose heartbeats answer the other replicas (id and counter) the test names. */
function registry(windowMs = 20, skipWait = true) {
  let t = 1_000;
  let others: { id: string; beat: number }[] = [];
  let fail = false;
  let hold: Promise<void> | undefined;
  const db = {
    statements: (names: Record<string, string>) => names,
    writeRows: async (): Promise<Row[]> => {
      if (hold) await hold;
      if (fail) throw new Error('database down');
      t += 5; // the heartbeat's round trip
      return [{ others }];
    },
  } as unknown as Db;
  const r = new Replicas(db, windowMs, skipWait, () => t);
  return {
    r,
    at: (ms: number) => (t = ms),
    now: () => t,
    others: (list: { id: string; beat: number }[]) => (others = list),
    failing: (on: boolean) => (fail = on),
    holding: (p: Promise<void> | undefined) => (hold = p),
  };
}

describe('Replicas: when a write may skip the commit wait, when a replica may answer from its window', () => {
  it('is neither alone nor answering from its window before its first heartbeat', () => {
    const { r } = registry();
    expect(r.alone()).toBe(false);
    expect(r.windowOpen()).toBe(false);
  });

  it('is alone, after a heartbeat that found no other replica, until that view is VIEW_VALID_MS old', async () => {
    const reg = registry();
    await reg.r.beat();
    expect(reg.r.alone()).toBe(true);
    reg.at(1_000 + VIEW_VALID_MS - 1);
    expect(reg.r.alone()).toBe(true);
    reg.at(1_000 + VIEW_VALID_MS);
    expect(reg.r.alone()).toBe(false); // the next heartbeat is late: waits come back
  });

  it('is never alone with COMMIT_WAIT=always', async () => {
    const reg = registry(20, false);
    await reg.r.beat();
    expect(reg.r.alone()).toBe(false);
  });

  it('counts another replica alive while its counter moves, and gone LIVE_MS (its own clock) after it stopped moving or at once when it left', async () => {
    const reg = registry();
    reg.others([{ id: 'b', beat: 1 }]);
    expect(await reg.r.beat()).toEqual(['b']);
    expect(reg.r.alone()).toBe(false);
    const firstSeen = reg.now();
    // b keeps beating: alive, however long ago it first appeared.
    reg.at(firstSeen + LIVE_MS);
    reg.others([{ id: 'b', beat: 2 }]);
    await reg.r.beat();
    expect(reg.r.alone()).toBe(false);
    const movedAt = reg.now();
    // b stops: still alive until its counter has stood still for LIVE_MS, from the answer that first showed it.
    reg.at(movedAt + LIVE_MS - 10);
    await reg.r.beat();
    expect(reg.r.alone()).toBe(false);
    reg.at(movedAt + LIVE_MS);
    expect(await reg.r.beat()).toEqual([]);
    expect(reg.r.alone()).toBe(true);
    // c appears, then leaves (its heartbeat deleted): alone again at the next heartbeat.
    reg.others([{ id: 'c', beat: 7 }]);
    await reg.r.beat();
    expect(reg.r.alone()).toBe(false);
    reg.others([]);
    await reg.r.beat();
    expect(reg.r.alone()).toBe(true);
  });

  it('opens its window only once every replica that thought itself alone has read the heartbeats again and waited W', async () => {
    const reg = registry(20);
    await reg.r.beat(); // sent at 1,000, answered at 1,005
    const opens = 1_005 + VIEW_VALID_MS + 20;
    reg.at(opens);
    expect(reg.r.windowOpen()).toBe(false); // the margin for timers and clocks
    reg.at(opens + 100);
    expect(reg.r.windowOpen()).toBe(true);
    // A question that arrived before the window opened is not answered from it, even now.
    expect(reg.r.windowOpen(opens + 99)).toBe(false);
    // Later heartbeats keep it open (no new wait)...
    reg.at(opens + 500);
    await reg.r.beat();
    expect(reg.r.windowOpen()).toBe(true);
  });

  it('shuts its window before the others may count it gone, and a window that lapsed opens again only as a new registration', async () => {
    const reg = registry(20);
    await reg.r.beat(); // sent at 1,000
    const lapses = 1_000 + LIVE_MS - VIEW_VALID_MS - 20 - 100;
    reg.at(lapses - 1);
    expect(reg.r.windowOpen()).toBe(true);
    reg.at(lapses);
    expect(reg.r.windowOpen()).toBe(false);
    // A heartbeat after the lapse (the database was away): the window waits as after a first heartbeat.
    await reg.r.beat();
    expect(reg.r.windowOpen()).toBe(false);
    reg.at(reg.now() + VIEW_VALID_MS + 20 + 100);
    expect(reg.r.windowOpen()).toBe(true);
  });

  it('falls back to waits and reads when heartbeats fail', async () => {
    const reg = registry();
    await reg.r.beat();
    reg.failing(true);
    await expect(reg.r.beat()).rejects.toThrow('database down');
    expect(reg.r.alone()).toBe(true); // the last view still holds for VIEW_VALID_MS
    reg.at(1_000 + VIEW_VALID_MS);
    expect(reg.r.alone()).toBe(false);
    reg.failing(false);
    await reg.r.beat();
    reg.at(reg.now() + VIEW_VALID_MS + 200);
    await reg.r.beat();
    expect(reg.r.alone()).toBe(true);
    expect(reg.r.windowOpen()).toBe(true);
  });

  it('stays shut once stopped, even when a heartbeat that was on its way answers after', async () => {
    const reg = registry();
    await reg.r.beat();
    reg.at(reg.now() + VIEW_VALID_MS + 200);
    let release!: () => void;
    reg.holding(new Promise<void>((ok) => (release = ok)));
    const late = reg.r.beat();
    const leaving = reg.r.leave();
    release();
    reg.holding(undefined);
    await late;
    await leaving;
    expect(reg.r.alone()).toBe(false);
    expect(reg.r.windowOpen()).toBe(false);
  });
});
