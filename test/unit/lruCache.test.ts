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
