// biome-ignore-all lint/suspicious/noExplicitAny: the console reads the API's JSON answers without their types
import { allowedPath, api, schema } from './api';
import { clear, el, errorText } from './dom';

/**
 * The access views (docs/console.md#access-views), built only on the engine's public answers: an
 * instance's users per action are `authorized_users`, each one's path is the explained check of
 * "Why?" (`/allowed?explain=true`); a user's accesses are `user-permissions`. Nothing here decides.
 * Both are bounded: an instance shows ACCESS_PAGE users per action (their paths asked for those
 * only), a user PERMISSIONS_PAGE rows at a time, and each says how many there are in all.
 */
export const ACCESS_PAGE = 20;
export const PERMISSIONS_PAGE = 50;
/** Explained checks asked at once (each is a heavy question for the service's admission). */
const EXPLAINS_AT_ONCE = 3;
/** Paths listed per user and action; more are counted. */
const PATHS_SHOWN = 3;

type Pick = (ref: string, kind: string) => void;
/** Fills "Why?" with a question and asks it (the path then highlighted on the graph). */
let askWhy: (user: string, action: string, resource: string) => void = () => undefined;
export const onWhy = (fn: typeof askWhy) => {
  askWhy = fn;
};

/** `fn` over `items`, at most `n` at a time, the answers in order. */
async function pooled<T, R>(items: T[], n: number, fn: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return out;
}

function userLink(user: string, pick: Pick): HTMLElement {
  const a = el('a', { href: '#', 'data-ref': `user:${user}` }, `user:${user}`);
  a.addEventListener('click', (ev) => {
    ev.preventDefault();
    pick(`user:${user}`, 'user');
  });
  return a;
}

function whyButton(user: string, action: string, resource: string): HTMLElement {
  const b = el(
    'button',
    { type: 'button', class: 'small', 'data-why': `${user} ${action} ${resource}`, title: 'show on the graph' },
    'Why?',
  );
  b.addEventListener('click', () => askWhy(user, action, resource));
  return b;
}

/** The granting paths of one (user, action, instance), as "Why?" answers them. */
async function pathsOf(user: string, action: string, type: string, key: string): Promise<HTMLElement> {
  try {
    const ans = await api('POST', allowedPath('?explain=true'), { user, action, resource: { type, key } });
    const paths: string[] = ans.explanation?.paths ?? [];
    const rules: any[] = (ans.explanation?.set_rules ?? []).filter((r: any) => r.granted);
    const lines = [
      ...paths.slice(0, PATHS_SHOWN).map((p) => el('li', { class: 'path' }, p)),
      ...(paths.length > PATHS_SHOWN ? [el('li', { class: 'muted' }, `and ${paths.length - PATHS_SHOWN} more path(s)`)] : []),
      ...rules.map((r) => el('li', { class: 'path rule' }, `set rule ${r.user_set} -> ${r.permission} on ${r.resource_set}`)),
    ];
    if (!ans.allow) lines.push(el('li', { class: 'error' }, `denied now: ${ans.explanation?.reason ?? ''}`));
    return el('ul', { class: 'paths' }, ...lines);
  } catch (err) {
    return el('p', { class: 'error' }, errorText(err));
  }
}

/**
 * An instance's access: for each action of its resource, every user `authorized_users` names, each
 * with the paths that grant it, ACCESS_PAGE users at a time ("next" shows more).
 */
export async function instanceAccess(type: string, key: string, actions: string[], pick: Pick): Promise<HTMLElement> {
  const ref = `${type}:${key}`;
  const answers = await pooled(actions, EXPLAINS_AT_ONCE, (action) =>
    api('POST', allowedPath('/authorized_users'), { action, resource: { type, key } }),
  );
  const blocks = actions.map((action, i) => {
    const users = Object.keys(answers[i].users ?? {}).sort();
    const rows = el('tbody');
    const more = el('p', { class: 'muted access-cut' });
    const block = el(
      'div',
      { class: 'access-action', 'data-action': action, 'data-count': String(users.length) },
      el('h5', {}, `${action}: ${users.length} user${users.length === 1 ? '' : 's'}`),
      users.length
        ? el('table', { class: 'access-users' }, el('tr', {}, el('th', {}, 'user'), el('th', {}, 'through'), el('th', {}, '')), rows)
        : el('p', { class: 'muted' }, 'nobody'),
      more,
    );
    let shown = 0;
    const showMore = async () => {
      const page = users.slice(shown, shown + ACCESS_PAGE);
      shown += page.length;
      const paths = await pooled(page, EXPLAINS_AT_ONCE, (u) => pathsOf(u, action, type, key));
      rows.append(
        ...page.map((u, j) =>
          el('tr', { 'data-user': u }, el('td', {}, userLink(u, pick)), el('td', {}, paths[j]), el('td', {}, whyButton(u, action, ref))),
        ),
      );
      if (shown < users.length) {
        const next = el(
          'button',
          { type: 'button', class: 'small', 'data-more': action },
          `next ${Math.min(ACCESS_PAGE, users.length - shown)}`,
        );
        next.addEventListener('click', () => void showMore());
        clear(more, `showing ${shown} of ${users.length} `, next);
      } else clear(more);
    };
    return { block, first: showMore };
  });
  // One action's first page at a time, so at most EXPLAINS_AT_ONCE explained checks run at once.
  await pooled(blocks, 1, (b) => b.first());
  return el('div', { id: 'instance-access', 'data-ref': ref }, ...blocks.map((b) => b.block));
}

/** One row of a user's access: an instance, or a whole tenant for one type (a tenant role). */
interface AccessRow {
  type: string;
  /** `type:key`, or `tenant:<t>` for a tenant-wide permission. */
  object: string;
  tenant: string;
  actions: string[];
  roles: string[];
}

/** user-permissions' map as rows per resource type (a tenant's permissions split by their type). */
export function rowsOf(answer: Record<string, any>): AccessRow[] {
  const rows: AccessRow[] = [];
  for (const v of Object.values(answer)) {
    const byType = new Map<string, string[]>();
    for (const p of v.permissions as string[]) {
      const at = p.indexOf(':');
      const type = p.slice(0, at);
      byType.set(type, [...(byType.get(type) ?? []), p.slice(at + 1)]);
    }
    for (const [type, actions] of byType) {
      rows.push({
        type,
        object: v.resource ? `${v.resource.type}:${v.resource.key}` : `tenant:${v.tenant.key}`,
        tenant: v.tenant.key,
        actions: actions.sort(),
        roles: [...(v.roles ?? [])].sort(),
      });
    }
  }
  return rows.sort((a, b) => (a.type + a.object < b.type + b.object ? -1 : a.type + a.object > b.type + b.object ? 1 : 0));
}

/**
 * A user's access: what `user-permissions` answers, per resource type, filtered by type, action and
 * text (in the object or a role), PERMISSIONS_PAGE rows at a time.
 */
export async function userAccess(user: string, pick: Pick): Promise<HTMLElement> {
  const [answer, resources] = await Promise.all([
    api('POST', allowedPath('/user-permissions'), { user }),
    api('GET', schema('resources?per_page=100')).catch(() => []),
  ]);
  const rows = rowsOf(answer);
  const types = [
    ...new Set([
      ...rows.map((r) => r.type),
      ...(Array.isArray(resources) ? resources : (resources.data ?? []))
        .map((r: any) => r.key as string)
        .filter((k: string) => !k.startsWith('__')),
    ]),
  ].sort();
  const typeSel = el(
    'select',
    { id: 'access-type' },
    el('option', { value: '' }, 'all types'),
    ...types.map((t) => el('option', { value: t }, t)),
  );
  const actionSel = el('select', { id: 'access-action' });
  const text = el('input', { id: 'access-text', placeholder: 'object or role contains...', autocomplete: 'off' });
  const summary = el('p', { id: 'access-summary', class: 'muted' });
  const body = el('div', { id: 'access-rows' });
  const pager = el('div', { class: 'row' });
  let page = 0;

  const fillActions = () => {
    const keep = actionSel.value;
    const of = rows.filter((r) => !typeSel.value || r.type === typeSel.value);
    const actions = [...new Set(of.flatMap((r) => r.actions))].sort();
    clear(actionSel, el('option', { value: '' }, 'all actions'), ...actions.map((a) => el('option', { value: a }, a)));
    actionSel.value = actions.includes(keep) ? keep : '';
  };
  const render = () => {
    const needle = text.value.trim().toLowerCase();
    const match = rows.filter(
      (r) =>
        (!typeSel.value || r.type === typeSel.value) &&
        (!actionSel.value || r.actions.includes(actionSel.value)) &&
        (!needle || r.object.toLowerCase().includes(needle) || r.roles.some((x) => x.toLowerCase().includes(needle))),
    );
    const pages = Math.max(1, Math.ceil(match.length / PERMISSIONS_PAGE));
    page = Math.min(page, pages - 1);
    const shown = match.slice(page * PERMISSIONS_PAGE, (page + 1) * PERMISSIONS_PAGE);
    const filtered = match.length !== rows.length ? ` (of ${rows.length})` : '';
    summary.textContent = match.length
      ? `${match.length} row${match.length === 1 ? '' : 's'}${filtered}; showing ${page * PERMISSIONS_PAGE + 1}-${page * PERMISSIONS_PAGE + shown.length}`
      : `nothing${filtered ? ` matches${filtered}` : ''}`;
    summary.dataset.count = String(match.length);
    const groups = new Map<string, AccessRow[]>();
    for (const r of shown) groups.set(r.type, [...(groups.get(r.type) ?? []), r]);
    clear(
      body,
      ...[...groups].map(([type, list]) =>
        el(
          'div',
          { class: 'access-type', 'data-type': type },
          el('h5', {}, `${type}: ${match.filter((r) => r.type === type).length}`),
          el(
            'table',
            { class: 'access-perms' },
            el('tr', {}, el('th', {}, 'object'), el('th', {}, 'actions'), el('th', {}, 'roles')),
            ...list.map((r) =>
              el(
                'tr',
                { 'data-object': r.object, 'data-actions': r.actions.join(' ') },
                el(
                  'td',
                  {},
                  r.object.startsWith('tenant:')
                    ? `every ${type} of tenant ${r.tenant}`
                    : (() => {
                        const a = el('a', { href: '#', 'data-ref': r.object }, r.object);
                        a.addEventListener('click', (ev) => {
                          ev.preventDefault();
                          pick(r.object, 'instance');
                        });
                        return a;
                      })(),
                ),
                el(
                  'td',
                  {},
                  ...r.actions.map((a) =>
                    r.object.startsWith('tenant:') ? el('span', { class: 'act' }, a) : actionWhy(user, a, r.object),
                  ),
                ),
                el('td', {}, r.roles.join(', ')),
              ),
            ),
          ),
        ),
      ),
    );
    const prev = el('button', { type: 'button', class: 'small', id: 'access-prev' }, 'previous');
    const next = el('button', { type: 'button', class: 'small', id: 'access-next' }, 'next');
    prev.toggleAttribute('disabled', page === 0);
    next.toggleAttribute('disabled', page >= pages - 1);
    prev.addEventListener('click', () => {
      page--;
      render();
    });
    next.addEventListener('click', () => {
      page++;
      render();
    });
    clear(pager, ...(pages > 1 ? [prev, next] : []));
  };
  typeSel.addEventListener('change', () => {
    page = 0;
    fillActions();
    render();
  });
  actionSel.addEventListener('change', () => {
    page = 0;
    render();
  });
  text.addEventListener('input', () => {
    page = 0;
    render();
  });
  fillActions();
  render();
  return el(
    'div',
    { id: 'user-access', 'data-user': user },
    el('div', { class: 'row access-filters' }, typeSel, actionSel, text),
    summary,
    body,
    pager,
  );
}

/** An action of a user's row: a button asking "Why?" for it. */
function actionWhy(user: string, action: string, object: string): HTMLElement {
  const b = el('button', { type: 'button', class: 'small act', 'data-why': `${user} ${action} ${object}`, title: 'Why?' }, action);
  b.addEventListener('click', () => askWhy(user, action, object));
  return b;
}
