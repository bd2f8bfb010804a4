// biome-ignore-all lint/suspicious/noExplicitAny: the console reads the API's JSON answers without their types
import { instanceAccess, userAccess } from './access';
import { api, consolePath, enc, facts, graphPath, itemsOf, schema } from './api';
import { clear, el, errorText } from './dom';
import { button, decide, groupActions, instanceActions, userActions } from './writes';

type Pick = (ref: string, kind: string) => void;

function table(head: string[], rows: (string | Node)[][]): HTMLElement {
  if (!rows.length) return el('p', { class: 'muted' }, 'none');
  return el(
    'table',
    {},
    el('tr', {}, ...head.map((h) => el('th', {}, h))),
    ...rows.map((r) => el('tr', {}, ...r.map((c) => el('td', {}, c)))),
  );
}

function link(ref: string, kind: string, pick: Pick): HTMLElement {
  const a = el('a', { href: '#', 'data-ref': ref }, ref);
  a.addEventListener('click', (ev) => {
    ev.preventDefault();
    pick(ref, kind);
  });
  return a;
}

const section = (title: string, body: HTMLElement) => el('div', { class: 'sub' }, el('h4', {}, title), body);

/** A user's memberships (groups, also through nesting), tenant roles (every assignment is under Change), effective roles with paths, and access. */
async function userPanel(key: string, pick: Pick): Promise<HTMLElement[]> {
  const [user, eff, assignments, access] = await Promise.all([
    api('GET', facts(`users/${enc(key)}`)),
    api('GET', graphPath(`/users/${enc(key)}/effective_roles`)),
    api('GET', facts(`role_assignments?user=${enc(key)}&per_page=100`)).then(itemsOf<any>),
    userAccess(key, pick).catch((err) => el('p', { class: 'error' }, `Could not load: ${errorText(err)}`)),
  ]);
  const roles: { resource: string; tenant: string; role: string; path: string }[] = eff.roles;
  const memberships = roles.filter((r) => r.role === 'member' && r.resource.startsWith('group:'));
  const direct = (user.roles ?? []).map((r: any) => [
    r.role,
    r.resource_instance ? `${r.resource}:${r.resource_instance}` : `tenant ${r.tenant}`,
    r.tenant ?? '',
  ]);
  return [
    section(
      'Memberships',
      table(
        ['group', 'path'],
        memberships.map((m) => [link(m.resource, 'group', pick), m.path]),
      ),
    ),
    section('Tenant roles', table(['role', 'on', 'tenant'], direct)),
    section('Access: what they may do, per resource type', access),
    section('Change', el('div', { class: 'changes' }, ...userActions(key, user, assignments))),
    section(
      'Effective roles',
      table(
        ['role', 'on', 'path'],
        roles.filter((r) => r.role !== 'member').map((r) => [r.role, r.resource, r.path]),
      ),
    ),
  ];
}

/** A group's members, parents, children and grants. */
async function groupPanel(key: string, pick: Pick): Promise<HTMLElement[]> {
  const g = schema(`groups/${enc(key)}`);
  const [users, parents, children, roles] = await Promise.all(
    ['users', 'parents', 'children', 'roles'].map((s) => api('GET', `${g}/${s}?per_page=100`).then(itemsOf<any>)),
  );
  const act = groupActions(key);
  const groupLinks = (list: any[], action?: (x: any) => HTMLElement) =>
    table(
      action ? ['group', ''] : ['group'],
      list.map((x) => [link(`group:${x.group_instance_key}`, 'group', pick), ...(action ? [action(x)] : [])]),
    );
  return [
    section(
      'Members',
      table(
        ['user', ''],
        users.map((u) => [link(`user:${u.key ?? u.user ?? u}`, 'user', pick), act.members({ key: u.key ?? u.user ?? u })]),
      ),
    ),
    section('Parents', groupLinks(parents, act.parents)),
    section('Children', groupLinks(children)),
    section(
      'Grants',
      table(
        ['role', 'on', ''],
        roles.map((r) => [r.role, `${r.resource}:${r.resource_instance}`, act.grants(r)]),
      ),
    ),
    section('Change', el('div', { class: 'changes' }, ...act.forms)),
  ];
}

/** An instance's access view: who may do each action, through which path (console/src/access.ts). */
async function instancePanel(ref: string, pick: Pick): Promise<HTMLElement[]> {
  const [type, ...rest] = ref.split(':');
  const key = rest.join(':');
  const [resource, instance] = await Promise.all([
    api('GET', schema(`resources/${enc(type)}`)),
    api('GET', schema(`resource_instances/${enc(ref)}`)),
  ]);
  const actions = Object.keys(resource.actions ?? {}).sort();
  return [
    section(
      'Access: who may do each action, and through which path',
      await instanceAccess(type, key, actions, pick).catch((err) => el('p', { class: 'error' }, `Could not load: ${errorText(err)}`)),
    ),
    section('Change', el('div', { class: 'changes' }, ...instanceActions(ref, instance))),
  ];
}

async function tenantPanel(key: string, pick: Pick): Promise<HTMLElement[]> {
  const users = itemsOf<any>(await api('GET', facts(`tenants/${enc(key)}/users?per_page=100`)));
  return [
    section(
      'Users',
      table(
        ['user'],
        users.map((u) => [link(`user:${u.key}`, 'user', pick)]),
      ),
    ),
  ];
}

export async function showNode(target: HTMLElement, ref: string, kind: string, pick: Pick): Promise<void> {
  clear(target, el('p', { class: 'muted' }, 'loading...'));
  target.dataset.showing = ref;
  const key = ref.slice(ref.indexOf(':') + 1);
  try {
    const parts =
      kind === 'user'
        ? await userPanel(key, pick)
        : kind === 'group'
          ? await groupPanel(key, pick)
          : kind === 'tenant'
            ? await tenantPanel(key, pick)
            : await instancePanel(ref, pick);
    if (target.dataset.showing !== ref) return; // another node was picked meanwhile
    clear(target, el('h4', { class: `title k-${kind}`, id: 'node-title' }, ref), ...parts);
  } catch (err) {
    clear(target, el('p', { class: 'error' }, errorText(err)));
  }
}

/** Nested groups as a tree: roots are groups with no parent; children load on expand. */
export async function showGroupTree(target: HTMLElement, pick: Pick): Promise<void> {
  const groups = itemsOf<any>(await api('GET', schema('groups?per_page=100')));
  const parentsOf = await Promise.all(
    groups.map((g) => api('GET', schema(`groups/${enc(g.group_instance_key)}/parents?per_page=100`)).then(itemsOf<any>)),
  );
  const roots = groups.filter((_g, i) => parentsOf[i].length === 0);
  clear(target, ...roots.map((g) => treeItem(g.group_instance_key, pick)));
  if (!groups.length) clear(target, el('li', { class: 'muted' }, 'no groups'));
}

function treeItem(key: string, pick: Pick): HTMLElement {
  const toggle = el('button', { class: 'toggle', 'aria-expanded': 'false', 'data-group': key, title: 'expand' }, '+');
  const children = el('ul', { class: 'tree' });
  const li = el('li', { 'data-group': key }, toggle, link(`group:${key}`, 'group', pick), children);
  toggle.addEventListener('click', async () => {
    if (toggle.getAttribute('aria-expanded') === 'true') {
      toggle.setAttribute('aria-expanded', 'false');
      toggle.textContent = '+';
      clear(children);
      return;
    }
    const kids = itemsOf<any>(await api('GET', schema(`groups/${enc(key)}/children?per_page=100`)));
    clear(
      children,
      ...(kids.length ? kids.map((k) => treeItem(k.group_instance_key, pick)) : [el('li', { class: 'muted' }, 'no child groups')]),
    );
    toggle.setAttribute('aria-expanded', 'true');
    toggle.textContent = '-';
  });
  return li;
}

/**
 * The queue: every config's operation approvals and access requests, pending first. A pending one
 * is decided as a reviewer the admin names (docs/console.md#approvals).
 */
export async function showApprovals(target: HTMLElement): Promise<void> {
  const queue = itemsOf<any>(await api('GET', consolePath('/approvals?per_page=100')));
  const decision = (a: any) => {
    if (a.status !== 'pending') return a.reviewer_user_id ? `by ${a.reviewer_user_id}` : '';
    const reviewer = el('input', { placeholder: 'reviewer', 'data-reviewer': a.id, size: '8' });
    const go = (verdict: 'approve' | 'deny') =>
      button(verdict, { [`data-${verdict}`]: a.id }, () => {
        if (!reviewer.value.trim()) reviewer.focus();
        else void decide(a, reviewer.value.trim(), verdict);
      });
    return el('span', { class: 'row' }, reviewer, go('approve'), go('deny'));
  };
  clear(
    target,
    table(
      ['type', 'status', 'config', 'who', 'on', 'reason', 'decide'],
      queue.map((a) => [
        a.type === 'access_request' ? `access ${a.role ?? ''}`.trim() : 'approval',
        el('span', { class: `status-${a.status}` }, a.status),
        a.elements_config_key ?? a.elements_config_id,
        a.requesting_user_id,
        a.resource_instance ? `${a.resource}:${a.resource_instance}` : `tenant ${a.tenant}`,
        a.reason ?? '',
        decision(a),
      ]),
    ),
  );
  target.querySelector('table')?.setAttribute('id', 'approvals-table');
}
