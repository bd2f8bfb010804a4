import type { TestService } from './testService';

/**
 * The world the walk-race tests delete under the walk (test/http/walk-vanished.test.ts,
 * test/http/walk-raced.test.ts): repos pulled by viewers, viewer derived from membership of a
 * team linked as `readers`, and `alice` a member of team `crew`.
 */
export async function seedTeamReaders(t: TestService): Promise<void> {
  const schema = `/v2/schema/${t.proj}/${t.env}`;
  const facts = `/v2/facts/${t.proj}/${t.env}`;
  await t.ok('POST', `${schema}/resources`, { key: 'team', name: 'Team', actions: {} });
  await t.ok('POST', `${schema}/resources/team/roles`, { key: 'member', name: 'Member', permissions: [] });
  await t.ok('POST', `${schema}/resources`, { key: 'repo', name: 'Repo', actions: { pull: {} } });
  await t.ok('POST', `${schema}/resources/repo/roles`, { key: 'viewer', name: 'Viewer', permissions: ['pull'] });
  await t.ok('POST', `${schema}/resources/repo/relations`, { key: 'readers', name: 'Reader teams', subject_resource: 'team' });
  await t.ok('POST', `${schema}/resources/repo/roles/viewer/implicit_grants`, {
    role: 'member',
    on_resource: 'team',
    linked_by_relation: 'readers',
  });
  await t.ok('POST', `${facts}/users`, { key: 'alice' });
  await t.ok('POST', `${facts}/resource_instances`, { key: 'crew', resource: 'team', tenant: 'default' });
  await t.ok('POST', `${facts}/role_assignments`, { user: 'alice', role: 'member', resource_instance: 'team:crew', tenant: 'default' });
}
