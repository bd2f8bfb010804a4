import { type AttributeBag, evaluate, type LeafTrace, type QuestionAttributes } from './evaluate';
import type { ConditionsStore, SetRuleNode, StoredInstance, StoredSet, StoredUser } from './store';

/** What is stored of a question's user and instance (null: none), as cypher/conditions/questionAttributes.cypher reads it. */
export interface QuestionStored {
  user: StoredUser | null;
  instance: StoredInstance | null;
}

/** A question as the set rules see it; the attributes sent with it overlay the stored ones. */
export interface RuleQuestion {
  user: string;
  action: string;
  type: string;
  key: string | null;
  tenant: string | null;
  userAttributes?: AttributeBag | null;
  resourceAttributes?: AttributeBag | null;
  context?: AttributeBag | null;
}

/** Why a rule granted (or, for explain, why each rule on the permission did not). */
export interface RuleVerdict {
  rule: string;
  permission: string;
  user_set: string;
  resource_set: string;
  granted: boolean;
  /** Each set checked (the set, then the sets it narrows), with each condition and whether it held. */
  sets: { set: string; kind: 'userset' | 'resourceset' | 'role' | 'resource_type'; held: boolean; conditions: LeafTrace[] }[];
}

/** The environment's rules, by permission, with their sets' trees parsed: read once per revision. */
export interface CompiledRules {
  rules: number;
  /** Some rule is is_role: a user's held roles can lapse by expiry within a revision, so users are not kept (decide). */
  isRole: boolean;
  byPermission: Map<string, SetRuleNode[]>;
  sets: Map<string, StoredSet & { tree: unknown }>;
}
const EMPTY: CompiledRules = { rules: 0, isRole: false, byPermission: new Map(), sets: new Map() };

const parse = (json: string | null | undefined): AttributeBag => {
  if (!json) return {};
  const v = JSON.parse(json) as unknown;
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as AttributeBag) : {};
};

/**
 * Set rules in decisions (docs/behaviour.md section 17): a rule grants its permission to every user of its
 * user set on every resource of its resource set. The graph part (which users and instances
 * exist, their stored attributes, tenant roles) is read by named statements; the conditions are
 * the evaluator's (src/areas/conditions/evaluate.ts). The rules are kept per environment at the
 * revision they were read at: in an environment without rules a check reads nothing more.
 */
export class SetRules {
  private readonly byEnv = new Map<string, { rev: number; compiled: CompiledRules }>();
  /** The read in flight per environment, with the revision it is for (at most one per environment). */
  private readonly reading = new Map<string, { rev: number; compiled: Promise<CompiledRules> }>();
  private static readonly MAX_ENVS = 10_000;
  /**
   * The stored attributes read for questions, kept with the rules of the revision they were read
   * at (a CompiledRules is kept for one environment revision: any write, of attributes too, moves
   * the revision and brings new rules, so a kept value is never older than the question's state).
   * `null`: no such user or instance. At most MAX_KEPT entries per revision.
   */
  private readonly stored = new WeakMap<CompiledRules, Map<string, StoredUser | StoredInstance | null>>();
  private static readonly MAX_KEPT = 20_000;
  /** The rules kept at a revision (the only ones whose attributes may be kept). */
  private readonly kept = new WeakSet<CompiledRules>();

  constructor(
    private readonly store: ConditionsStore,
    private readonly defaultTenant: string,
  ) {}

  /**
   * The environment's rules at revision `rev` (read when not kept at it; `rev` undefined: always
   * read). Questions that arrive at a new revision while its rules are being read wait for that
   * one read: every write moves the revision, and under a steady write rate the checks in flight
   * at each new revision would otherwise each read the same rules. Not SharedReads
   * (src/util/sharedRead.ts): its callers join only a read not started yet, for freshness; a read
   * for one revision, started by a caller that knew it, already answers every later caller of it.
   */
  at(env: string, rev: number | undefined, floor?: number): Promise<CompiledRules> {
    const kept = this.keptAt(env, rev);
    if (kept) return Promise.resolve(kept);
    if (rev === undefined) return this.read(env, rev, floor);
    const reading = this.reading.get(env);
    if (reading?.rev === rev) return reading.compiled;
    const compiled = this.read(env, rev, floor);
    const done = () => {
      if (this.reading.get(env)?.compiled === compiled) this.reading.delete(env);
    };
    compiled.then(done, done);
    this.reading.set(env, { rev, compiled });
    return compiled;
  }

  private async read(env: string, rev: number | undefined, floor?: number): Promise<CompiledRules> {
    const { rules, sets } = await this.store.rulesOf(env, floor);
    const compiled: CompiledRules = rules.length
      ? {
          rules: rules.length,
          isRole: rules.some((r) => r.is_role),
          byPermission: rules.reduce((m, r) => m.set(r.permission, [...(m.get(r.permission) ?? []), r]), new Map<string, SetRuleNode[]>()),
          sets: new Map(sets.map((s) => [s.key, { ...s, tree: JSON.parse(s.conditions_json) as unknown }])),
        }
      : EMPTY;
    if (rev !== undefined) {
      if (this.byEnv.size >= SetRules.MAX_ENVS && !this.byEnv.has(env)) this.byEnv.delete(this.byEnv.keys().next().value!);
      this.byEnv.set(env, { rev, compiled });
      if (compiled !== EMPTY) this.kept.add(compiled);
    }
    return compiled;
  }

  /**
   * Whether the environment is known to have no set rules at revision `rev`, without a read or an
   * await: the cached denied check of an environment without rules stays as cheap as before them.
   */
  noneAt(env: string, rev: number | undefined): boolean {
    return this.keptAt(env, rev)?.rules === 0;
  }

  /** The rules kept for the environment when they were read at revision `rev`. */
  private keptAt(env: string, rev: number | undefined): CompiledRules | undefined {
    const kept = this.byEnv.get(env);
    return kept && rev !== undefined && kept.rev === rev ? kept.compiled : undefined;
  }

  /** Whether any rule grants `action` on `type` (or any action when `action` is null). */
  static grantsOn(c: CompiledRules, type: string, action: string | null): boolean {
    if (!c.rules) return false;
    if (action !== null) return c.byPermission.has(`${type}:${action}`);
    return [...c.byPermission.keys()].some((p) => p.startsWith(`${type}:`));
  }

  /** The actions rules grant on `type`. */
  static actionsOn(c: CompiledRules, type: string): string[] {
    return [...c.byPermission.keys()].filter((p) => p.startsWith(`${type}:`)).map((p) => p.slice(type.length + 1));
  }

  /**
   * For each question, the verdicts of the rules on its permission (granted first). Reads the
   * stored attributes of the questions' users and instances in one statement, only for questions
   * some rule may grant.
   */
  async decide(
    env: string,
    c: CompiledRules,
    qs: RuleQuestion[],
    floor?: number,
    all = false,
    /** What the walk answered of each question's user and instance in its own round trip (then not read here). */
    given?: (QuestionStored | undefined)[],
  ): Promise<RuleVerdict[][]> {
    const asked = qs.map((q) => (SetRules.grantsOn(c, q.type, q.action) ? q : null));
    const live = asked.filter((q): q is RuleQuestion => q !== null);
    if (!live.length) return qs.map(() => []);
    const kept = this.keptOf(c);
    const userKey = (u: string) => `u\u0000${u}`;
    const instanceKey = (type: string, key: string) => `i\u0000${type}\u0000${key}`;
    const found = new Map<string, StoredUser | StoredInstance | null>();
    qs.forEach((q, i) => {
      const g = given?.[i];
      if (!g) return;
      found.set(userKey(q.user), g.user);
      if (q.key !== null) found.set(instanceKey(q.type, q.key), g.instance);
    });
    // Users' held tenant roles (is_role) may expire within a revision: then users are read each time.
    const keptUsers = c.isRole ? undefined : kept;
    const users = [...new Set(live.map((q) => q.user))].filter((u) => !found.has(userKey(u)) && !keptUsers?.has(userKey(u)));
    const instances = [
      ...new Map(live.filter((q) => q.key !== null).map((q) => [instanceKey(q.type, q.key!), { type: q.type, key: q.key! }])).entries(),
    ]
      .filter(([k]) => !found.has(k) && !kept?.has(k))
      .map(([, ref]) => ref);
    const read = users.length || instances.length ? await this.store.questionAttributes(env, users, instances, floor) : null;
    for (const u of users) found.set(userKey(u), null);
    for (const i of instances) found.set(instanceKey(i.type, i.key), null);
    for (const u of read?.users ?? []) found.set(userKey(u.key), u);
    for (const i of read?.instances ?? []) found.set(instanceKey(i.type, i.key), i);
    if (kept) for (const [k, v] of found) if (kept.size < SetRules.MAX_KEPT && (keptUsers || !k.startsWith('u\u0000'))) kept.set(k, v);
    const lookup = (k: string) => (found.has(k) ? found.get(k) : kept?.get(k)) ?? undefined;
    return asked.map((q) => {
      if (!q) return [];
      const instance = q.key === null ? undefined : (lookup(instanceKey(q.type, q.key)) as StoredInstance | undefined);
      return this.verdicts(c, q, lookup(userKey(q.user)) as StoredUser | undefined, instance, all);
    });
  }

  /** The stored attributes kept with `c`: only for rules kept at a revision (read without one: none). */
  private keptOf(c: CompiledRules): Map<string, StoredUser | StoredInstance | null> | undefined {
    if (!this.kept.has(c)) return undefined;
    let m = this.stored.get(c);
    if (!m) this.stored.set(c, (m = new Map()));
    return m;
  }

  /** The verdicts of one question, given what is stored of its user and instance. */
  verdicts(
    c: CompiledRules,
    q: RuleQuestion,
    user: StoredUser | undefined,
    instance: StoredInstance | undefined,
    all = false,
  ): RuleVerdict[] {
    // An instance of another tenant than the one asked: nothing, as for roles.
    if (instance && q.tenant !== null && instance.tenant !== q.tenant) return [];
    const tenant = instance?.tenant ?? q.tenant ?? this.defaultTenant;
    // Object.assign, not `{ ...stored, key, ... }`: on Node 20's V8 a literal that spreads and then
    // adds properties costs microseconds (docs/benchmarks.md, "Object spreads"). Same order, same result.
    const attrs: QuestionAttributes = {
      user: Object.assign({}, parse(user?.attributes_json), { key: q.user }, user?.email ? { email: user.email } : null, q.userAttributes),
      resource: Object.assign(
        {},
        parse(instance?.attributes_json),
        { type: q.type, tenant },
        q.key !== null ? { key: q.key } : null,
        q.resourceAttributes,
      ),
      context: Object.assign({}, q.context),
    };
    const out: RuleVerdict[] = [];
    for (const rule of c.byPermission.get(`${q.type}:${q.action}`) ?? []) {
      const sets: RuleVerdict['sets'] = [];
      let granted: boolean;
      if (rule.is_role) {
        const held = (user?.tenant_roles ?? []).some((g) => g.tenant === tenant && g.role === rule.user_set);
        sets.push({ set: rule.user_set, kind: 'role', held, conditions: [] });
        granted = held;
      } else granted = this.setHolds(c, rule.user_set, attrs, sets);
      if (granted || all) {
        if (rule.is_resource) {
          const held = q.type === rule.resource_set;
          sets.push({ set: rule.resource_set, kind: 'resource_type', held, conditions: [] });
          granted &&= held;
        } else granted = this.setHolds(c, rule.resource_set, attrs, sets) && granted;
      }
      out.push({ rule: rule.key, permission: rule.permission, user_set: rule.user_set, resource_set: rule.resource_set, granted, sets });
      if (granted && !all) break;
    }
    return out.sort((a, b) => Number(b.granted) - Number(a.granted));
  }

  /** A set holds when its conditions and those of every set it narrows hold (each traced). */
  private setHolds(c: CompiledRules, key: string, attrs: QuestionAttributes, trace: RuleVerdict['sets']): boolean {
    let holds = true;
    const seen = new Set<string>();
    for (let set = c.sets.get(key); set && !seen.has(set.key); set = set.parent ? c.sets.get(set.parent) : undefined) {
      seen.add(set.key);
      const { result, trace: conditions } = evaluate(set.tree, attrs);
      trace.push({ set: set.key, kind: set.type === 'resourceset' ? 'resourceset' : 'userset', held: result, conditions });
      holds &&= result;
      if (!holds) break;
    }
    return holds && c.sets.has(key);
  }

  /** Candidates for lists: every user (authorized users) or the instances of types (list-objects, user-permissions). */
  candidateUsers(env: string) {
    return this.store.candidateUsers(env);
  }
  candidateInstances(env: string, types: string[], tenants: string[] | null) {
    return this.store.candidateInstances(env, types, tenants);
  }
  instanceOf(env: string, type: string, key: string, floor?: number) {
    return this.store.questionAttributes(env, [], [{ type, key }], floor).then((r) => r.instances[0]);
  }
  storedUser(env: string, user: string, floor?: number) {
    return this.store.questionAttributes(env, [user], [], floor).then((r) => r.users[0]);
  }
}
