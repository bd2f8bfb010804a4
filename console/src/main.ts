// biome-ignore-all lint/suspicious/noExplicitAny: the console reads the API's JSON answers without their types
import { onWhy } from './access';
import { adminKey, allPages, allowedPath, api, enc, facts, graphPath, itemsOf, schema, scope } from './api';
import { $, clear, el, errorText } from './dom';
import { GraphView, type Neighbourhood, parsePath } from './graph';
import { showApprovals, showGroupTree, showNode } from './panels';
import { createForms, onWritten } from './writes';

let view: GraphView;
let focus: { ref: string; kind: string } | null = null;

async function signIn(key: string): Promise<void> {
  adminKey.set(key);
  try {
    const projects = await allPages<any>('/v2/projects');
    $('sign-in').hidden = true;
    $('app').hidden = false;
    $('sign-out').hidden = false;
    view ??= new GraphView($('graph'));
    view.onSelect = pick;
    const sel = $<HTMLSelectElement>('project');
    clear(sel, ...projects.map((p) => el('option', { value: p.key }, p.key)));
    await chooseProject();
  } catch (err) {
    adminKey.clear();
    $('sign-in').hidden = false;
    $('sign-in-error').textContent = errorText(err);
  }
}

/** Bumped on each choice: answers for an earlier choice are dropped. */
let choice = 0;

async function chooseProject(): Promise<void> {
  const mine = ++choice;
  const proj = $<HTMLSelectElement>('project').value;
  try {
    const envs = await allPages<any>(`/v2/projects/${enc(proj)}/envs`);
    if (mine !== choice) return;
    scope.proj = proj;
    clear($('env'), ...envs.map((e) => el('option', { value: e.key }, e.key)));
    await chooseEnv();
  } catch (err) {
    if (mine === choice) $('where').textContent = errorText(err);
  }
}

async function chooseEnv(): Promise<void> {
  const mine = ++choice;
  scope.env = $<HTMLSelectElement>('env').value;
  $('where').textContent = `${scope.proj} / ${scope.env}`;
  clear($('search-results'));
  // Each panel is built apart and shown only if no later choice was made meanwhile (a slow answer
  // for the environment chosen first must not replace the one chosen after it). A panel that
  // cannot load says why, in its place (the others still load).
  const shown = async (target: HTMLElement, load: (t: HTMLElement) => Promise<void>) => {
    const fresh = el('div');
    await load(fresh).catch((err) => clear(fresh, el('p', { class: 'error' }, `Could not load: ${errorText(err)}`)));
    if (mine === choice) clear(target, ...Array.from(fresh.childNodes));
  };
  await Promise.all([
    search().catch(() => undefined),
    shown($('group-tree'), (t) => showGroupTree(t, pick)),
    shown($('approvals'), showApprovals),
  ]);
}

const SEARCH: Record<string, { path: (q: string) => string; ref: (x: any) => string }> = {
  user: { path: (q) => facts(`users?per_page=50&search=${q}`), ref: (x) => `user:${x.key}` },
  group: { path: (q) => schema(`groups?per_page=50&search=${q}`), ref: (x) => `group:${x.group_instance_key}` },
  instance: { path: (q) => schema(`resource_instances?per_page=50&search=${q}`), ref: (x) => `${x.resource}:${x.key}` },
  tenant: { path: (q) => facts(`tenants?per_page=50&search=${q}`), ref: (x) => `tenant:${x.key}` },
};

let searches = 0;

async function search(): Promise<void> {
  const mine = ++searches;
  const kind = $<HTMLSelectElement>('search-kind').value;
  const text = $<HTMLInputElement>('search-text').value.trim();
  const s = SEARCH[kind];
  const found = itemsOf<any>(await api('GET', s.path(enc(text))));
  if (mine !== searches) return; // a later search answers instead
  const list = $('search-results');
  clear(
    list,
    ...found.map((x) => {
      const ref = s.ref(x);
      const a = el('a', { href: '#', 'data-ref': ref }, ref);
      a.addEventListener('click', (ev) => {
        ev.preventDefault();
        void pick(ref, kind);
      });
      return el('li', {}, a);
    }),
  );
  if (!found.length) clear(list, el('li', { class: 'muted' }, 'nothing found'));
}

/** Loads the neighbourhood of a node (tenants: the tenant's part of the environment). */
let graphs = 0;

async function loadGraph(ref: string, kind: string, depth: number): Promise<boolean> {
  const mine = ++graphs;
  const q = kind === 'tenant' ? `tenant=${enc(ref.slice(7))}` : `focus=${enc(ref)}`;
  const g: Neighbourhood = await api('GET', graphPath(`?${q}&depth=${depth}&limit=500`));
  if (mine !== graphs) return false; // a later choice draws instead
  $('truncated').hidden = !g.truncated;
  $('graph').dataset.truncated = String(g.truncated);
  $('graph-stats').textContent = `${g.nodes.length} nodes, ${g.edges.length} edges`;
  $('focus-label').textContent = ref;
  const t0 = performance.now();
  await view.show(g, kind === 'tenant' ? null : ref);
  $('graph').dataset.renderMs = String(Math.round(performance.now() - t0));
  $('graph').dataset.nodes = String(g.nodes.length);
  return true;
}

async function pick(ref: string, kind: string): Promise<void> {
  focus = { ref, kind };
  $('graph').dataset.highlighted = '';
  await Promise.all([
    loadGraph(ref, kind, Number($<HTMLInputElement>('depth').value) || 0).catch((err) => {
      $('graph-stats').textContent = errorText(err);
    }),
    showNode($('node-panel'), ref, kind, (r, k) => void pick(r, k)),
  ]);
  if (kind === 'user') $<HTMLInputElement>('why-user').value = ref.slice(5);
  if (kind === 'instance') $<HTMLInputElement>('why-resource').value = ref;
}

/** The set rules on the permission asked (docs/behaviour.md section 17): each rule, its sets, and each condition with the value found. */
interface ConditionView {
  attribute: string;
  operator: string;
  value: unknown;
  found: unknown;
  held: boolean;
}
interface SetRuleView {
  user_set: string;
  permission: string;
  resource_set: string;
  granted: boolean;
  sets: { set: string; kind: string; held: boolean; conditions: ConditionView[] }[];
}
function setRulesOf(rules: SetRuleView[]): HTMLElement[] {
  if (!rules.length) return [];
  const condition = (c: ConditionView) =>
    el(
      'li',
      { class: c.held ? 'held' : 'failed' },
      `${c.held ? 'held' : 'failed'}: ${c.attribute} ${c.operator} ${JSON.stringify(c.value)} (found ${JSON.stringify(c.found)})`,
    );
  return [
    el(
      'ol',
      { id: 'why-set-rules' },
      ...rules.map((r) =>
        el(
          'li',
          { class: r.granted ? 'allow' : 'deny' },
          `set rule ${r.user_set} -> ${r.permission} on ${r.resource_set}: ${r.granted ? 'grants' : 'does not grant'}`,
          ...r.sets.map((s) =>
            el('ul', {}, el('li', {}, `${s.kind} ${s.set}: ${s.held ? 'holds' : 'does not hold'}`), ...s.conditions.map(condition)),
          ),
        ),
      ),
    ),
  ];
}

/** "Why?": the explained answer; each granting path highlighted on the user's neighbourhood. */
async function why(ev: Event): Promise<void> {
  ev.preventDefault();
  const user = $<HTMLInputElement>('why-user').value.trim();
  const action = $<HTMLInputElement>('why-action').value.trim();
  const [type, ...rest] = $<HTMLInputElement>('why-resource').value.trim().split(':');
  const tenant = $<HTMLInputElement>('why-tenant').value.trim();
  const out = $('why-answer');
  clear(out, el('p', { class: 'muted' }, 'asking...'));
  try {
    const resource = { type, ...(rest.length ? { key: rest.join(':') } : {}), ...(tenant ? { tenant } : {}) };
    const ans = await api('POST', allowedPath('?explain=true'), { user, action, resource });
    const paths: string[] = ans.explanation?.paths ?? [];
    clear(
      out,
      el('p', { id: 'why-verdict', class: ans.allow ? 'allow' : 'deny' }, ans.allow ? 'allowed' : 'denied'),
      ...(paths.length ? [el('ol', { id: 'why-paths' }, ...paths.map((p) => el('li', { class: 'path' }, p)))] : []),
      ...(!ans.allow && ans.explanation?.reason ? [el('p', { id: 'why-reason' }, ans.explanation.reason)] : []),
      ...setRulesOf(ans.explanation?.set_rules ?? []),
    );
    if (paths.length) {
      const hops = Math.max(...paths.map((p) => parsePath(p).length));
      $<HTMLInputElement>('depth').value = String(Math.min(6, hops));
      focus = { ref: `user:${user}`, kind: 'user' };
      if (await loadGraph(focus.ref, 'user', Math.min(6, hops))) {
        const lit = view.highlight(paths);
        $('graph').dataset.highlightedEdges = lit.edges.join('\n');
        $('graph').dataset.highlighted = lit.nodes.join(' ');
      }
    }
  } catch (err) {
    clear(out, el('p', { class: 'error' }, errorText(err)));
  }
}

/** After a write: the focused node, its graph, the tree, the queue and the search, read again. */
async function refreshAfterWrite(): Promise<void> {
  await Promise.all([
    focus ? pick(focus.ref, focus.kind) : Promise.resolve(),
    showGroupTree($('group-tree'), pick).catch(() => undefined),
    showApprovals($('approvals')).catch(() => undefined),
    search().catch(() => undefined),
  ]);
}

function start(): void {
  onWritten(refreshAfterWrite);
  // An access view's "Why?": the question asked in the "Why?" card, its path drawn on the graph.
  onWhy((user, action, resource) => {
    $<HTMLInputElement>('why-user').value = user;
    $<HTMLInputElement>('why-action').value = action;
    $<HTMLInputElement>('why-resource').value = resource;
    $<HTMLInputElement>('why-tenant').value = '';
    $<HTMLFormElement>('why-form').requestSubmit();
  });
  createForms($('create'));
  $('sign-in').addEventListener('submit', (ev) => {
    ev.preventDefault();
    void signIn($<HTMLInputElement>('admin-key').value);
  });
  $('sign-out').addEventListener('click', () => {
    adminKey.clear();
    location.reload();
  });
  $('project').addEventListener('change', () => void chooseProject());
  $('env').addEventListener('change', () => void chooseEnv());
  $('search-kind').addEventListener('change', () => void search());
  let timer: number | undefined;
  $('search-text').addEventListener('input', () => {
    clearTimeout(timer);
    timer = window.setTimeout(() => void search().catch(() => undefined), 200);
  });
  $('depth').addEventListener('change', () => {
    if (focus) void loadGraph(focus.ref, focus.kind, Number($<HTMLInputElement>('depth').value) || 0);
  });
  $('why-form').addEventListener('submit', (ev) => void why(ev));
  const key = adminKey.get();
  if (key) void signIn(key);
  else $('sign-in').hidden = false;
}

start();
