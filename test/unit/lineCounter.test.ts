import { LineCounter } from '../../src/cli/snapshot';

/** The CLI's check that an export arrived whole reads its last line, however the stream was cut into chunks. */
async function lastOf(chunks: string[]) {
  const counter = new LineCounter(() => undefined);
  counter.resume();
  for (const c of chunks) counter.write(Buffer.from(c));
  await new Promise<void>((ok) => counter.end(ok));
  return { last: counter.lastLine(), lines: counter.lines };
}

const end = '{"type":"end","revision":3,"nodes":1,"relationships":0}\n';

describe('the last line of an export stream', () => {
  it('is the end line when it arrives in a chunk of its own, after a chunk that ended with a line', async () => {
    expect(await lastOf(['{"type":"header"}\n{"type":"node"}\n', end])).toEqual({
      last: expect.objectContaining({ type: 'end', nodes: 1 }),
      lines: 3,
    });
  });
  it('is the end line when it is split across chunks, or shares one with other lines', async () => {
    expect((await lastOf(['{"type":"header"}\n{"type":"node"}\n{"type":"en', 'd","nodes":1}\n'])).last).toMatchObject({ type: 'end' });
    expect((await lastOf([`{"type":"header"}\n${end}`])).last).toMatchObject({ type: 'end' });
    expect((await lastOf(['{"type":"header"}\n', '{"type":"node"}\n', end.slice(0, 10), end.slice(10)])).last).toMatchObject({
      type: 'end',
    });
  });
  it('is not an end line when the stream was cut off in the middle of a line', async () => {
    expect((await lastOf(['{"type":"header"}\n', end, '{"type":"node","la'])).last).toBeUndefined();
    expect((await lastOf(['{"type":"header"}\n{"type":"node"}\n'])).last).toMatchObject({ type: 'node' });
  });
});
