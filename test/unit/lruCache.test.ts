import { LruCache } from '../../src/util/lruCache';

describe('LruCache', () => {
  it('forgets the least recently used entry past its size', () => {
    const c = new LruCache<number>(2);
    c.set('a', 1);
    c.set('b', 2);
    expect(c.get('a')).toBe(1); // a is now the most recent
    c.set('c', 3);
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBe(1);
    expect(c.get('c')).toBe(3);
    expect(c.size).toBe(2);
  });

  it('moves a hit to the newest end only from the older half: a read entry outlives half its size of newer sets', () => {
    const c = new LruCache<string>(4);
    for (const k of ['a', 'b', 'c', 'd']) c.set(k, k);
    expect(c.get('c')).toBe('c'); // in the newer half: left where it is
    expect(c.get('a')).toBe('a'); // the oldest: moved to the newest end
    c.set('e', 'e');
    expect(c.get('b')).toBeUndefined(); // the least recently used goes first
    c.set('f', 'f');
    // c was read two sets (half the size) ago and had not been moved: it goes now, before d.
    expect(c.get('c')).toBeUndefined();
    expect(['a', 'd', 'e', 'f'].map((k) => c.get(k))).toEqual(['a', 'd', 'e', 'f']);
    // a read entry survives at least half the size of newer sets
    const big = new LruCache<number>(100);
    for (let i = 0; i < 100; i++) big.set(`k${i}`, i);
    expect(big.get('k0')).toBe(0);
    for (let i = 100; i < 149; i++) big.set(`k${i}`, i);
    expect(big.get('k0')).toBe(0);
  });

  it('forgets entries older than its TTL, and keeps nothing with size 0', () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(1000);
    const c = new LruCache<string>(10, 50);
    c.set('k', 'v');
    now.mockReturnValue(1040);
    expect(c.get('k')).toBe('v');
    now.mockReturnValue(1100);
    expect(c.get('k')).toBeUndefined();
    now.mockRestore();
    const none = new LruCache<string>(0);
    none.set('k', 'v');
    expect(none.get('k')).toBeUndefined();
  });
});
