import { join } from 'node:path';
import { describeChanges } from '../../src/areas/changes/capture';
import { CypherRegistry } from '../../src/db/cypherRegistry';

const registry = new CypherRegistry(join(__dirname, '../../cypher'));
/** What the named statement declares it changes (its `// @changes` header). */
const declared = (name: string) => registry.info(name).changes;

/** The `changed` list column of a write statement's answer: one event per element, with its states. */
describe('describeChanges with a `changed` column', () => {
  it('records one event per element, keyed by its state, without secrets', () => {
    const rows = [
      {
        missing: [],
        deleted: 2,
        changed: [
          { before: { key: 'ann', email: 'ann@x.test', attributes_json: '{"a":1}', token_hash: 'h' } },
          { before: { key: 'bob', id: 'b-1' } },
        ],
      },
    ];
    expect(describeChanges(declared('facts/deleteUsers'), 'env', { env: 'e1', refs: ['ann', 'b-1'] }, rows)).toEqual([
      {
        env: 'e1',
        feed: true,
        op: 'delete',
        kind: 'user',
        key: 'ann',
        before: { key: 'ann', email: 'ann@x.test', attributes_json: '{"a":1}' },
      },
      { env: 'e1', feed: true, op: 'delete', kind: 'user', key: 'bob', before: { key: 'bob', id: 'b-1' } },
    ]);
  });

  it('records a replace whose count of created records is 0, and one that created (no before)', () => {
    const rows = [
      { created: 0, total: 1, changed: [{ before: { key: 'ann', first_name: 'A' }, after: { key: 'ann', first_name: 'Ann' } }] },
    ];
    expect(describeChanges(declared('facts/replaceUsers'), 'env', { env: 'e1', items: [{ key: 'ann' }] }, rows)).toEqual([
      {
        env: 'e1',
        feed: true,
        op: 'update',
        kind: 'user',
        key: 'ann',
        before: { key: 'ann', first_name: 'A' },
        after: { key: 'ann', first_name: 'Ann' },
      },
    ]);
    const created = describeChanges(declared('facts/replaceUsers'), 'env', { env: 'e1', items: [{ key: 'cy' }] }, [
      { created: 1, total: 1, changed: [{ before: null, after: { key: 'cy' } }] },
    ]);
    expect(created).toEqual([{ env: 'e1', feed: true, op: 'update', kind: 'user', key: 'cy', after: { key: 'cy' } }]);
  });

  it("takes an element's own key and kind over the state's and the statement's", () => {
    const rows = [
      {
        deleted: 1,
        changed: [
          { kind: 'group_member', key: 'eng/ann', before: { group: 'eng', user: 'ann' } },
          { key: 'ann/admin/acme', before: { user: 'ann' } },
        ],
      },
    ];
    expect(describeChanges(declared('expiry/deleteExpired'), 'env', { env: 'e1', now: 1, batch: 500 }, rows)).toEqual([
      { env: 'e1', feed: true, op: 'delete', kind: 'group_member', key: 'eng/ann', before: { group: 'eng', user: 'ann' } },
      { env: 'e1', feed: true, op: 'delete', kind: 'expired', key: 'ann/admin/acme', before: { user: 'ann' } },
    ]);
  });

  it('records nothing for an empty `changed` list, whatever the parameters hold', () => {
    expect(
      describeChanges(declared('assignments/unassignRoles'), 'env', { env: 'e1', items: [{ user: 'ann', role: 'r', tenant: 't' }] }, [
        { removed: 0, changed: [] },
      ]),
    ).toEqual([]);
  });
});
