import pino from 'pino';
import { RequestState } from '../../src/http/requestState';

describe('RequestState (ctx.state of every request: src/http/requestState.ts)', () => {
  const lines = () => {
    const out: Record<string, unknown>[] = [];
    const log = pino({ level: 'info' }, { write: (l: string) => out.push(JSON.parse(l)) });
    return { log, out };
  };

  it('makes the request logger only when something logs, with the request id of that moment', () => {
    const { log, out } = lines();
    let made = 0;
    const child = log.child.bind(log);
    log.child = ((b: pino.Bindings) => {
      made++;
      return child(b);
    }) as typeof log.child;
    const state = new RequestState(12.5, 'first-id', log);
    expect(made).toBe(0);
    state.reqId = 'second-id'; // a route of another specification may replace it before the first log
    state.log.info('hello');
    state.log.info('again');
    expect(made).toBe(1);
    expect(out.map((l) => [l.reqId, l.msg])).toEqual([
      ['second-id', 'hello'],
      ['second-id', 'again'],
    ]);
    expect(state.arrivedAt).toBe(12.5);
  });

  it("takes another id (an AuthZEN route echoes the caller's): later lines carry it, each line its id once", () => {
    const raw: string[] = [];
    const log = pino({ level: 'info' }, { write: (l: string) => raw.push(l) });
    const state = new RequestState(0, 'generated-id', log);
    state.log.info('before');
    state.renameTo('callers-id');
    state.log.info('after');
    expect(raw.map((l) => JSON.parse(l).reqId)).toEqual(['generated-id', 'callers-id']);
    expect(state.reqId).toBe('callers-id');
    // JSON.parse keeps the last of two equal keys: the raw line shows whether the id was written twice.
    expect(raw.map((l) => l.match(/"reqId":/g)?.length)).toEqual([1, 1]);
  });

  it('every request shares one hidden shape: the logger is the class getter, no object has its own', () => {
    const { log } = lines();
    const a = new RequestState(0, 'a', log);
    const b = new RequestState(1, 'b', log);
    expect(Object.getOwnPropertyDescriptor(a, 'log')).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(b, 'log')).toBeUndefined();
    expect(typeof Object.getOwnPropertyDescriptor(RequestState.prototype, 'log')?.get).toBe('function');
  });
});
