import { packChecks } from '../../src/areas/decisions/packedChecks';

describe('packChecks (the walk extension reads it back: neo4j/extension PackedChecks.java)', () => {
  it('writes each field with its length in UTF-16 code units, null as ~, then the stored flag', () => {
    expect(
      packChecks([
        { user: 'u1', action: 'read', type: 'doc', key: null, tenant: null },
        { user: '😀:~', action: 'push', type: 'repo', key: '', tenant: 'acme', stored: true },
      ]),
    ).toBe('2:u14:read3:doc~~0' + '4:😀:~4:push4:repo0:4:acme1');
  });

  it('packs nothing as the empty string', () => {
    expect(packChecks([])).toBe('');
  });
});
