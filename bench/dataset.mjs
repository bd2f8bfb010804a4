// The benchmark graph, generated deterministically: users, nested groups (chains of 10), repos,
// group grants, memberships and direct role assignments. The same facts feed our service (over
// HTTP) and SpiceDB.
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function buildDataset({
  users = 10_000,
  chains = 200,
  depth = 10,
  repos = 20_000,
  directPerUser = 15,
  grantsPerGroup = 10,
  seed = 42,
} = {}) {
  const rnd = mulberry32(seed);
  const pick = (n) => Math.floor(rnd() * n);
  const userKeys = Array.from({ length: users }, (_, i) => `user${i}`);
  const repoKeys = Array.from({ length: repos }, (_, i) => `repo${i}`);
  // group c.l: chain c, level l (0 = top); level l+1 is a member of level l.
  const group = (c, l) => `g${c}.${l}`;
  const groups = [];
  for (let c = 0; c < chains; c++) for (let l = 0; l < depth; l++) groups.push(group(c, l));
  const nesting = [];
  for (let c = 0; c < chains; c++) for (let l = 1; l < depth; l++) nesting.push({ child: group(c, l), parent: group(c, l - 1) });
  // Every group is a viewer of some repos; the top of each chain is also an editor of some.
  const groupGrants = [];
  const grantOf = new Map();
  for (const g of groups) {
    const top = g.endsWith('.0');
    for (let k = 0; k < grantsPerGroup; k++) {
      const repo = repoKeys[pick(repos)];
      groupGrants.push({ group: g, role: 'viewer', repo });
      if (top) groupGrants.push({ group: g, role: 'editor', repo: repoKeys[pick(repos)] });
    }
  }
  for (const gg of groupGrants) if (!grantOf.has(`${gg.group}|${gg.role}`)) grantOf.set(`${gg.group}|${gg.role}`, gg.repo);
  // Each user is in the bottom group of one chain and in one random group.
  const memberships = [];
  for (let i = 0; i < users; i++) {
    memberships.push({ user: userKeys[i], group: group(i % chains, depth - 1) });
    memberships.push({ user: userKeys[i], group: groups[pick(groups.length)] });
  }
  const direct = [];
  for (const u of userKeys)
    for (let k = 0; k < directPerUser; k++) direct.push({ user: u, role: rnd() < 0.3 ? 'editor' : 'viewer', repo: repoKeys[pick(repos)] });
  return { userKeys, repoKeys, groups, nesting, groupGrants, memberships, direct, chains, depth, grantOf, rnd, group };
}

/** The facts of a dataset: nestings, group grants, memberships and direct assignments (193,800 at full size). */
export const factsOf = (ds) => ds.nesting.length + ds.groupGrants.length + ds.memberships.length + ds.direct.length;

/** A question of the cases below: may `user` do `action` on repo `repo` (in the default tenant). */
const q = (user, action, repo) => ({ user, action, resource: { type: 'repo', key: repo, tenant: 'default' } });

/** What tells two questions apart (their user, action, repo and the network of their context). */
const questionKey = (x) => `${x.user}|${x.action}|${x.resource.key}|${x.context?.network ?? ''}`;

/** The questions without repeats, each where it first came. */
export const distinctQuestions = (qs) => [...new Map(qs.map((x) => [questionKey(x), x])).values()];

/** The questions of each measured case, each with its expected answer where the dataset fixes it. */
export function buildQuestions(ds, count = 2000) {
  const userInChain = (c) => ds.userKeys[c + ds.chains * Math.floor(ds.rnd() * (ds.userKeys.length / ds.chains))];
  const chainCase = (levels, role, action) =>
    Array.from({ length: count }, (_, i) => {
      const c = i % ds.chains;
      const granting = ds.group(c, ds.depth - levels);
      return { ...q(userInChain(c), action, ds.grantOf.get(`${granting}|${role}`)), expect: true };
    });
  return {
    'direct role': Array.from({ length: count }, (_, i) => {
      const d = ds.direct[Math.floor(ds.rnd() * ds.direct.length)];
      return { ...q(d.user, 'pull', d.repo), expect: true };
    }),
    '1-level group': chainCase(1, 'viewer', 'pull'),
    '5-level nesting': chainCase(5, 'viewer', 'pull'),
    '10-level nesting': chainCase(10, 'editor', 'push'),
    // A random user pushing to a random repo: almost always denied, after a full search.
    denied: Array.from({ length: count }, () =>
      q(ds.userKeys[Math.floor(ds.rnd() * ds.userKeys.length)], 'push', ds.repoKeys[Math.floor(ds.rnd() * ds.repoKeys.length)]),
    ),
  };
}

/**
 * The same cases as buildQuestions, each as up to `count` distinct questions in a seeded random
 * order, none asked twice, each with its expected answer (from the facts: graphAnswers). For the
 * uncached rows of bench:peers, which ask each question once: a system that answers a question
 * it has seen at the same revision from a cache of answers (SpiceDB's dispatch cache does, at
 * `fully_consistent` too: docs/benchmarks.md, "Each question once") meets none. The chain cases
 * take every (user of the chain, repo granted to the granting group) pair, so their space is
 * users x grants (100,000 at full size); direct role every distinct (user, repo) of the direct
 * roles; denied random (user, repo) pairs for push. Its own generator: the dataset's questions
 * elsewhere stay as they were.
 */
export function buildDistinctQuestions(ds, count = 100_000, { seed = 11 } = {}) {
  const rnd = mulberry32(seed);
  const graph = graphAnswers(ds);
  const shuffled = (xs) => {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [xs[i], xs[j]] = [xs[j], xs[i]];
    }
    return xs;
  };
  const usersOfChain = (c) => ds.userKeys.filter((_, i) => i % ds.chains === c);
  const grantsOf = new Map(); // "group|role" -> repos
  for (const g of ds.groupGrants) {
    const k = `${g.group}|${g.role}`;
    if (!grantsOf.has(k)) grantsOf.set(k, new Set());
    grantsOf.get(k).add(g.repo);
  }
  const chainCase = (levels, role, action) => {
    const qs = [];
    for (let c = 0; c < ds.chains; c++) {
      const repos = grantsOf.get(`${ds.group(c, ds.depth - levels)}|${role}`) ?? [];
      for (const u of usersOfChain(c)) for (const r of repos) qs.push({ ...q(u, action, r), expect: true });
    }
    return shuffled(distinctQuestions(qs)).slice(0, count);
  };
  const direct = shuffled(distinctQuestions(ds.direct.map((d) => ({ ...q(d.user, 'pull', d.repo), expect: true })))).slice(0, count);
  const denied = new Map();
  for (let n = 0; denied.size < count && n < count * 4; n++) {
    const question = q(ds.userKeys[Math.floor(rnd() * ds.userKeys.length)], 'push', ds.repoKeys[Math.floor(rnd() * ds.repoKeys.length)]);
    const key = questionKey(question);
    if (!denied.has(key)) denied.set(key, { ...question, expect: graph(question.user, 'push', question.resource.key) });
  }
  return {
    'direct role': direct,
    '1-level group': chainCase(1, 'viewer', 'pull'),
    '5-level nesting': chainCase(5, 'viewer', 'pull'),
    '10-level nesting': chainCase(10, 'editor', 'push'),
    denied: [...denied.values()],
  };
}

/**
 * The "decided by conditions" case of bench:peers (docs/behaviour.md section 17), over the dataset above:
 * attributes on a share of its users (`department`, `clearance`) and repos (`classification`),
 * drawn from a generator of their own (the dataset and its questions stay as they were), and
 * questions whose answers a set rule decides. The rules, as Permit writes them:
 *   user set "engineering": department equals "engineering" and clearance >= 3;
 *   user set "engineering-office" (parent "engineering"): context.network equals "office";
 *   resource set "internal-docs" (repo): classification equals "internal";
 *   engineering -> repo:pull on internal-docs; engineering-office -> repo:push on internal-docs.
 * Half the questions ask pull without context, half push with `context: {network}` (office or
 * home); half the users asked are in "engineering" and half the repos in "internal-docs", the rest
 * drawn from all (with attributes or without: a missing attribute makes its condition false).
 * Each question's `expect` is the rule's answer or the graph's, computed here from the facts, so
 * that ours is checked too, not only the peers against ours.
 */
export function buildConditions(ds, count = 2000, { seed = 7, share = 0.5 } = {}) {
  const rnd = mulberry32(seed);
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  const userAttributes = new Map();
  const repoAttributes = new Map();
  for (const u of ds.userKeys)
    if (rnd() < share)
      userAttributes.set(u, { department: rnd() < 0.5 ? 'engineering' : pick(['sales', 'ops']), clearance: 1 + Math.floor(rnd() * 5) });
  for (const r of ds.repoKeys)
    if (rnd() < share) repoAttributes.set(r, { classification: rnd() < 0.5 ? 'internal' : pick(['public', 'secret']) });
  const engineering = (u) => userAttributes.get(u)?.department === 'engineering' && userAttributes.get(u).clearance >= 3;
  const internal = (r) => repoAttributes.get(r)?.classification === 'internal';
  const engineers = ds.userKeys.filter(engineering);
  const internals = ds.repoKeys.filter(internal);
  const graph = graphAnswers(ds);
  const questions = Array.from({ length: count }, (_, i) => {
    const user = rnd() < 0.5 ? pick(engineers) : pick(ds.userKeys);
    const repo = rnd() < 0.5 ? pick(internals) : pick(ds.repoKeys);
    const push = i % 2 === 1;
    const q = { user, action: push ? 'push' : 'pull', resource: { type: 'repo', key: repo, tenant: 'default' } };
    if (push) q.context = { network: rnd() < 0.5 ? 'office' : 'home' };
    const rule = engineering(user) && internal(repo) && (!push || q.context.network === 'office');
    return { ...q, expect: rule || graph(user, q.action, repo), byRule: rule };
  });
  return { userAttributes, repoAttributes, questions };
}

/** The role graph's answer to "may `user` do `action` (push, pull) on `repo`", from the facts. */
export function graphAnswers(ds) {
  const parentOf = new Map(ds.nesting.map((n) => [n.child, n.parent]));
  const grants = new Map(); // group or user -> ["role|repo"]
  const add = (who, role, repo) => {
    if (!grants.has(who)) grants.set(who, new Set());
    grants.get(who).add(`${role}|${repo}`);
  };
  for (const g of ds.groupGrants) add(`group:${g.group}`, g.role, g.repo);
  for (const d of ds.direct) add(`user:${d.user}`, d.role, d.repo);
  const groupsOf = new Map();
  for (const m of ds.memberships) {
    if (!groupsOf.has(m.user)) groupsOf.set(m.user, new Set());
    for (let g = m.group; g !== undefined; g = parentOf.get(g)) groupsOf.get(m.user).add(g);
  }
  return (user, action, repo) => {
    const roles = action === 'push' ? ['editor'] : ['editor', 'viewer'];
    const holders = [`user:${user}`, ...[...(groupsOf.get(user) ?? [])].map((g) => `group:${g}`)];
    return holders.some((h) => roles.some((r) => grants.get(h)?.has(`${r}|${repo}`)));
  };
}
