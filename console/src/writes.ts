// biome-ignore-all lint/suspicious/noExplicitAny: the console reads the API's JSON answers without their types
import { api, enc, facts, impactPath, schema, scope } from './api';
import { $, clear, el, errorText } from './dom';

/**
 * The console's writes (docs/console.md): each one public API call with the admin key (the same
 * routes the SDKs use; the console names itself with `x-authz-actor: console`, src/api.ts), so it
 * is one transaction, in the changes feed and in the audit log. After it the view is refreshed;
 * its error is shown as the API's message. A write that can take access away is previewed first
 * (`POST /v2/impact/...`): what would be lost, then Confirm or Cancel.
 */

/** One intended write as the impact API takes it (src/areas/impact/schemas.ts). */
export type ImpactWrite = Record<string, unknown> & { op: string };

let refresh: () => Promise<void> = async () => undefined;
export const onWritten = (fn: () => Promise<void>) => {
  refresh = fn;
};

function status(text: string, kind: 'ok' | 'error' | 'muted'): void {
  const s = $('write-status');
  s.className = kind === 'ok' ? 'allow' : kind;
  s.textContent = text;
}

/** Runs one write through the public API, then refreshes the view; the API's message when it fails. */
export async function write(label: string, method: string, path: string, body?: unknown): Promise<boolean> {
  status(`${label}...`, 'muted');
  $('write-status').dataset.settled = '';
  try {
    await api(method, path, body);
    status(`done: ${label}`, 'ok');
    await refresh();
    // The view is read again: what was on screen before the write is replaced (tests wait for this).
    $('write-status').dataset.settled = label;
    return true;
  } catch (err) {
    status(`${label}: ${errorText(err)}`, 'error');
    return false;
  }
}

/**
 * A write that can take access away: the impact preview first (every (user, action, object) allowed
 * now and denied after, computed by the service's decision engine on the graph as it would be), then
 * the write only when confirmed.
 */
export async function revoke(label: string, intended: ImpactWrite, method: string, path: string, body?: unknown): Promise<void> {
  const box = $('impact');
  box.hidden = false;
  clear(box, el('h3', {}, `Before: ${label}`), el('p', { class: 'muted' }, 'computing what would be lost...'));
  let preview: any;
  try {
    preview = await api('POST', impactPath(), { writes: [intended] });
  } catch (err) {
    clear(box, el('h3', {}, `Before: ${label}`), el('p', { class: 'error', id: 'impact-error' }, errorText(err)), closeButton(box));
    return;
  }
  const lost: { user: string; action: string; object: string }[] = preview.lost;
  const confirm = el('button', { id: 'impact-confirm', type: 'button' }, 'Confirm');
  const cancel = el('button', { id: 'impact-cancel', type: 'button' }, 'Cancel');
  clear(
    box,
    el('h3', {}, `Before: ${label}`),
    el(
      'p',
      { id: 'impact-count' },
      `${preview.count} access${preview.count === 1 ? '' : 'es'} would be lost${preview.cut ? ' (cut at the deadline: at least this many)' : ''}`,
    ),
    lost.length
      ? el(
          'table',
          { id: 'impact-table' },
          el('tr', {}, el('th', {}, 'user'), el('th', {}, 'action'), el('th', {}, 'object')),
          ...lost.map((t) => el('tr', {}, el('td', {}, t.user), el('td', {}, t.action), el('td', {}, t.object))),
        )
      : el('p', { class: 'muted', id: 'impact-none' }, 'nobody loses anything'),
    el('div', { class: 'row' }, confirm, cancel),
  );
  box.dataset.count = String(preview.count);
  cancel.addEventListener('click', () => {
    box.hidden = true;
    status(`canceled: ${label}`, 'muted');
  });
  confirm.addEventListener('click', async () => {
    box.hidden = true;
    await write(label, method, path, body);
  });
}

function closeButton(box: HTMLElement): HTMLElement {
  const b = el('button', { type: 'button', id: 'impact-cancel' }, 'Close');
  b.addEventListener('click', () => {
    box.hidden = true;
  });
  return b;
}

/** A small form: named inputs and a button; `submit` gets the trimmed values (empty ones absent). */
export function form(
  id: string,
  fields: { name: string; placeholder: string; required?: boolean; textarea?: string }[],
  button: string,
  submit: (v: Record<string, string>) => Promise<unknown>,
): HTMLElement {
  const inputs = fields.map((f) =>
    f.textarea !== undefined
      ? Object.assign(el('textarea', { name: f.name, placeholder: f.placeholder, rows: '3' }), { value: f.textarea })
      : el('input', { name: f.name, placeholder: f.placeholder, autocomplete: 'off', ...(f.required ? { required: '' } : {}) }),
  );
  const f = el('form', { id, class: 'write-form' }, ...inputs, el('button', { type: 'submit' }, button));
  f.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const values: Record<string, string> = {};
    for (const i of inputs) if (i.value.trim()) values[i.name] = i.value.trim();
    void submit(values);
  });
  return f;
}

export function button(label: string, attrs: Record<string, string>, onClick: () => void): HTMLElement {
  const b = el('button', { type: 'button', class: 'small', ...attrs }, label);
  b.addEventListener('click', onClick);
  return b;
}

/** `{...}` typed in a form, or the API-style error the console shows for it. */
function attributesOf(text: string | undefined): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(text ?? '{}');
    if (v && typeof v === 'object' && !Array.isArray(v)) return v;
  } catch {
    // shown below
  }
  status('attributes: not a JSON object', 'error');
  return undefined;
}

/** A role assignment as the API names it (`resource_instance` "type:key"; absent: a tenant role). */
const assignmentBody = (user: string, v: Record<string, string>) => ({
  user,
  role: v.role,
  ...(v.tenant ? { tenant: v.tenant } : {}),
  ...(v.resource_instance ? { resource_instance: v.resource_instance } : {}),
  ...(v.expires_at ? { expires_at: v.expires_at } : {}),
});

// ---- the actions of each node panel --------------------------------------------------------

export function userActions(key: string, user: any, assignments: any[]): HTMLElement[] {
  const unassign = (a: any) =>
    button('unassign', { 'data-unassign': `${a.role}@${a.resource_instance ?? a.tenant}` }, () => {
      const body = {
        user: key,
        role: a.role,
        tenant: a.tenant,
        ...(a.resource_instance ? { resource_instance: a.resource_instance } : {}),
      };
      void revoke(`unassign ${a.role} from ${key}`, { op: 'unassign_role', ...body }, 'DELETE', facts('role_assignments'), body);
    });
  return [
    el(
      'table',
      { id: 'user-assignments' },
      el('tr', {}, el('th', {}, 'role'), el('th', {}, 'on'), el('th', {}, 'expires'), el('th', {}, '')),
      ...assignments.map((a) =>
        el(
          'tr',
          {},
          el('td', {}, a.role),
          el('td', {}, a.resource_instance ?? `tenant ${a.tenant}`),
          el('td', {}, a.expires_at ?? ''),
          el('td', {}, unassign(a)),
        ),
      ),
    ),
    form(
      'assign-role',
      [
        { name: 'role', placeholder: 'role', required: true },
        { name: 'resource_instance', placeholder: 'on type:key (empty: tenant role)' },
        { name: 'tenant', placeholder: 'tenant' },
        { name: 'expires_at', placeholder: 'expires at (ISO 8601, optional)' },
      ],
      'Assign role',
      (v) => write(`assign ${v.role} to ${key}`, 'POST', facts('role_assignments'), assignmentBody(key, v)),
    ),
    form(
      'add-to-group',
      [
        { name: 'group', placeholder: 'group', required: true },
        { name: 'tenant', placeholder: 'tenant', required: true },
      ],
      'Add to group',
      (v) => write(`add ${key} to ${v.group}`, 'PUT', schema(`groups/${enc(v.group)}/users/${enc(key)}`), { tenant: v.tenant }),
    ),
    form(
      'user-attributes',
      [{ name: 'attributes', placeholder: '{"attribute": "value"}', textarea: JSON.stringify(user.attributes ?? {}) }],
      'Set attributes',
      async (v) => {
        const attributes = attributesOf(v.attributes);
        if (attributes)
          await revoke(
            `set the attributes of ${key}`,
            { op: 'set_user_attributes', user: key, attributes },
            'PATCH',
            facts(`users/${enc(key)}`),
            {
              attributes,
            },
          );
      },
    ),
    button('Delete user', { id: 'delete-user', class: 'danger' }, () => {
      void revoke(`delete user ${key}`, { op: 'delete_user', user: key }, 'DELETE', facts(`users/${enc(key)}`));
    }),
  ];
}

export function groupActions(key: string): {
  members: (u: any) => HTMLElement;
  parents: (p: any) => HTMLElement;
  grants: (g: any) => HTMLElement;
  forms: HTMLElement[];
} {
  const g = (rest: string) => schema(`groups/${enc(key)}${rest}`);
  return {
    members: (u) =>
      button('remove', { 'data-remove-member': u.key }, () => {
        void revoke(
          `remove ${u.key} from ${key}`,
          { op: 'remove_member', group: key, user: u.key },
          'DELETE',
          g(`/users/${enc(u.key)}`),
          {},
        );
      }),
    parents: (p) =>
      button('remove', { 'data-remove-parent': p.group_instance_key }, () => {
        const parent = p.group_instance_key;
        void revoke(`take ${key} out of ${parent}`, { op: 'remove_parent', group: key, parent }, 'DELETE', g('/assign_group'), {
          group_instance_key: parent,
        });
      }),
    grants: (r) =>
      button('revoke', { 'data-revoke-grant': `${r.role}@${r.resource}:${r.resource_instance}` }, () => {
        const body = { resource: r.resource, resource_instance: r.resource_instance, role: r.role, tenant: r.tenant };
        void revoke(
          `revoke ${r.role} on ${r.resource}:${r.resource_instance} from ${key}`,
          {
            op: 'revoke_group_role',
            group: key,
            role: r.role,
            tenant: r.tenant,
            resource_instance: `${r.resource}:${r.resource_instance}`,
          },
          'DELETE',
          g('/roles'),
          body,
        );
      }),
    forms: [
      form(
        'add-member',
        [
          { name: 'user', placeholder: 'user', required: true },
          { name: 'tenant', placeholder: 'tenant', required: true },
        ],
        'Add member',
        (v) => write(`add ${v.user} to ${key}`, 'PUT', g(`/users/${enc(v.user)}`), { tenant: v.tenant }),
      ),
      form('add-parent', [{ name: 'parent', placeholder: 'parent group', required: true }], 'Put in group', (v) =>
        write(`put ${key} in ${v.parent}`, 'PUT', g('/assign_group'), { group_instance_key: v.parent }),
      ),
      form(
        'grant-role',
        [
          { name: 'role', placeholder: 'role', required: true },
          { name: 'instance', placeholder: 'on type:key', required: true },
          { name: 'tenant', placeholder: 'tenant', required: true },
        ],
        'Grant role',
        (v) => {
          const [resource, ...rest] = v.instance.split(':');
          return write(`grant ${v.role} on ${v.instance} to ${key}`, 'POST', g('/roles'), {
            role: v.role,
            resource,
            resource_instance: rest.join(':'),
            tenant: v.tenant,
          });
        },
      ),
      button('Delete group', { id: 'delete-group', class: 'danger' }, () => {
        void revoke(`delete group ${key}`, { op: 'delete_group', group: key }, 'DELETE', g(''));
      }),
    ],
  };
}

export function instanceActions(ref: string, instance: any): HTMLElement[] {
  const path = schema(`resource_instances/${enc(ref)}`);
  return [
    form(
      'instance-attributes',
      [{ name: 'attributes', placeholder: '{"attribute": "value"}', textarea: JSON.stringify(instance.attributes ?? {}) }],
      'Set attributes',
      async (v) => {
        const attributes = attributesOf(v.attributes);
        if (attributes)
          await revoke(
            `set the attributes of ${ref}`,
            { op: 'set_instance_attributes', resource_instance: ref, attributes },
            'PATCH',
            path,
            { attributes },
          );
      },
    ),
    button('Delete instance', { id: 'delete-instance', class: 'danger' }, () => {
      void revoke(`delete ${ref}`, { op: 'delete_instance', resource_instance: ref }, 'DELETE', path);
    }),
  ];
}

/** The "Create" card: users, groups, resource instances and tenants. */
export function createForms(target: HTMLElement): void {
  clear(
    target,
    form('create-user', [{ name: 'key', placeholder: 'user key', required: true }], 'Create user', (v) =>
      write(`create user ${v.key}`, 'POST', facts('users'), { key: v.key }),
    ),
    form(
      'create-group',
      [
        { name: 'key', placeholder: 'group key', required: true },
        { name: 'tenant', placeholder: 'tenant', required: true },
      ],
      'Create group',
      (v) => write(`create group ${v.key}`, 'POST', schema('groups'), { group_instance_key: v.key, group_tenant: v.tenant }),
    ),
    form(
      'create-instance',
      [
        { name: 'ref', placeholder: 'type:key', required: true },
        { name: 'tenant', placeholder: 'tenant', required: true },
      ],
      'Create instance',
      (v) => {
        const [resource, ...rest] = v.ref.split(':');
        return write(`create ${v.ref}`, 'POST', schema('resource_instances'), { resource, key: rest.join(':'), tenant: v.tenant });
      },
    ),
    form('create-tenant', [{ name: 'key', placeholder: 'tenant key', required: true }], 'Create tenant', (v) =>
      write(`create tenant ${v.key}`, 'POST', facts('tenants'), { key: v.key, name: v.key }),
    ),
  );
}

/**
 * Decides a queued approval or access request as `reviewer` (docs/console.md#approvals): the admin
 * key logs the reviewer in to the request's tenant (`elements_login_as`, the token kept in memory
 * only), the decision is that reviewer's own call, so the reviewer rules hold (only a user who may
 * review it can decide it: the API's error otherwise), then the session is ended.
 */
export async function decide(a: any, reviewer: string, verdict: 'approve' | 'deny'): Promise<void> {
  const label = `${verdict} ${a.type === 'access_request' ? 'access request' : 'approval'} of ${a.requesting_user_id} as ${reviewer}`;
  status(`${label}...`, 'muted');
  try {
    const login = await api('POST', `/v2/auth/elements_login_as?proj_id=${enc(scope.proj)}&env_id=${enc(scope.env)}`, {
      user_id: reviewer,
      tenant_id: a.tenant,
    });
    const as = { token: login.element_bearer_token as string, elementId: a.elements_config_id as string };
    const kind = a.type === 'access_request' ? 'access_requests' : 'operation_approval';
    try {
      await api(
        'PUT',
        `/v2/elements/${enc(scope.proj)}/${enc(scope.env)}/config/${enc(a.elements_config_id)}/${kind}/${enc(a.id)}/${verdict}`,
        { reviewer_comment: `${verdict === 'approve' ? 'approved' : 'denied'} from the admin console` },
        as,
      );
    } finally {
      await api('POST', '/v2/auth/logout', undefined, as).catch(() => undefined);
    }
    status(`done: ${label}`, 'ok');
    await refresh();
  } catch (err) {
    status(`${label}: ${errorText(err)}`, 'error');
  }
}
