import { unpackPage } from '../../src/areas/decisions/packedPage';

describe('unpackPage (a list-objects page as the walk extension packs it: neo4j/extension ListObjects.java)', () => {
  it('reads each object: its tenant by index, then its key by its length in UTF-16 code units', () => {
    // Keys made of the packing's own characters, an astral character (two units) and an empty key.
    const page = '0:5:a:1~2' + '1:4:😀:~' + '0:0:' + '1:3:12:';
    expect(unpackPage(page, ['acme', 'globex'], 'repo')).toEqual([
      { type: 'repo', key: 'a:1~2', tenant: 'acme' },
      { type: 'repo', key: '😀:~', tenant: 'globex' },
      { type: 'repo', key: '', tenant: 'acme' },
      { type: 'repo', key: '12:', tenant: 'globex' },
    ]);
  });

  it('reads a missing key (~) as null and an empty page as no objects', () => {
    expect(unpackPage('0:~0:1:x', ['t'], 'doc')).toEqual([
      { type: 'doc', key: null, tenant: 't' },
      { type: 'doc', key: 'x', tenant: 't' },
    ]);
    expect(unpackPage('', [], 'doc')).toEqual([]);
  });

  it('refuses a page it cannot read whole (a tenant out of range, a key longer than the rest)', () => {
    expect(() => unpackPage('1:1:a', ['t'], 'doc')).toThrow(/tenant 1 of 1/);
    expect(() => unpackPage('0:9:abc', ['t'], 'doc')).toThrow(/malformed key/);
    expect(() => unpackPage('0', ['t'], 'doc')).toThrow(/without its tenant/);
  });
});
