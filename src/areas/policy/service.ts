import { randomUUID } from 'node:crypto';
import type { Scope } from '../../auth/types';
import type { Tx } from '../../db/db';
import { AppError, invalidInput } from '../../errors';
import { now } from '../../util/time';
import type { PolicyFile } from './format';
import {
  attributesInUse,
  type ConditionsModel,
  conditionsOfFile,
  conditionsOfGraph,
  conditionsProblems,
  fileSectionsOf,
  parentsFirst,
  planConditions,
} from './conditions';
import { configWrite, governed, webhookWrite } from '../elements/govern';
import type { ElementsStore } from '../elements/store';
import { Managed } from './managed';
import { fileOfModel, modelOfFile, modelOfGraph, type PolicyModel, type SchemaRows } from './model';
import { type Change, configProblems, derivationOf, planOf, problemsOf } from './plan';
import {
  type ProxyConfigsModel,
  planProxyConfigs,
  proxyConfigProblems,
  proxyConfigsOfFile,
  proxyConfigsOfGraph,
  proxyConfigsSection,
} from './proxyConfigs';
import type { InUse, PolicyStore } from './store';

export interface PlanAnswer {
  /** Whether the environment's own schema differs from the file. */
  changed: boolean;
  /** Whether the changes were made (false for a plan, a dry run, or nothing to change). */
  applied: boolean;
  changes: Change[];
}

interface Planned {
  rows: SchemaRows;
  /** Managed schema as it will be after the apply (the file's elements configs govern their resources). */
  managed: Managed;
  desired: PolicyModel;
  /** The conditions the file carries, and the graph's (docs/behaviour.md section 17). */
  conditions: { have: ConditionsModel; want: ConditionsModel };
  /** The file's proxy configs (undefined: it has none, the environment's stay). */
  proxyConfigs: ProxyConfigsModel | undefined;
  changes: Change[];
  used: InUse[];
}

const what = (u: InUse) =>
  u.kind === 'role'
    ? `tenant role ${JSON.stringify(u.key)}`
    : u.kind === 'elements_config'
      ? `elements config ${JSON.stringify(u.key)}`
      : u.kind === 'resource'
        ? `resource ${JSON.stringify(u.key)}`
        : `${u.kind === 'relation' ? 'relation' : 'role'} ${JSON.stringify(u.key)} of resource ${JSON.stringify(u.resource)}`;
const changeKeyOf = (u: InUse) =>
  u.kind === 'resource' || u.kind === 'role' || u.kind === 'elements_config'
    ? u.key
    : u.kind === 'relation'
      ? `${u.resource}.${u.key}`
      : `${u.resource}#${u.key}`;
const kindOf = (u: InUse) => (u.kind === 'resource_role' ? 'resource_role' : u.kind);

/**
 * Policy as code (docs/behaviour.md section 16): the environment's own schema as one document, compared
 * with a policy file (plan) and made equal to it in one transaction (apply).
 */
export class PolicyService {
  constructor(
    private readonly store: PolicyStore,
    /** Elements configs are written with the elements API's own store statements, in the apply's transaction. */
    private readonly elements: ElementsStore,
  ) {}

  /** The environment's own schema as a policy file (managed schema left out). */
  async exportPolicy(scope: Scope): Promise<PolicyFile> {
    const [rows, conditions] = await this.store.read(async (tx) =>
      Promise.all([this.store.readSchema(tx, scope.envId), this.store.readConditions(tx, scope.envId)]),
    );
    const { own } = this.modelsOf(rows);
    return {
      ...fileOfModel(own),
      ...fileSectionsOf(conditionsOfGraph(conditions)),
      ...proxyConfigsSection(proxyConfigsOfGraph(rows.proxyConfigs)),
    };
  }

  async plan(scope: Scope, file: PolicyFile): Promise<PlanAnswer> {
    const { changes } = await this.store.read((tx) => this.planIn(tx, scope, file));
    return { changed: changes.length > 0, applied: false, changes };
  }

  /**
   * Makes the environment's own schema equal to the file, in one transaction. Removing a record
   * that facts use is refused (409 naming each) unless `prune`, which removes those facts with it.
   * Nothing to change: nothing is written (no revision, no change event).
   */
  async apply(scope: Scope, file: PolicyFile, prune: boolean): Promise<PlanAnswer> {
    return this.store.write(async (tx) => {
      // Nothing differs: nothing is written, not even the lock.
      if (!(await this.planIn(tx, scope, file)).changes.length) return { changed: false, applied: false, changes: [] };
      await this.store.lockEnvironment(tx, { env: scope.envId });
      const planned = await this.planIn(tx, scope, file);
      if (!planned.changes.length) return { changed: false, applied: false, changes: [] };
      if (planned.used.length && !prune) {
        const details = planned.used.map((u) => ({ path: `/policy/${changeKeyOf(u)}`, message: `${what(u)} is used by ${u.n} ${u.what}` }));
        throw new AppError(
          409,
          'INVALID_STATE',
          `The policy removes schema that facts still use: ${details.map((d) => d.message).join('; ')}. Keep them in the file, remove those facts first, or apply with prune=true to remove them with it.`,
          details,
        );
      }
      await this.write(tx, scope.envId, planned);
      return { changed: true, applied: true, changes: planned.changes };
    });
  }

  /** `governed`: the resources elements configs govern (the graph's by default; a plan passes the file's). */
  private modelsOf(rows: SchemaRows, governed = rows.governed) {
    const managed = new Managed(rows.groupTypes, governed);
    const graph = modelOfGraph(rows);
    const own = managed.own(graph, (r) => graph.resources[r]?.relations ?? {});
    return { managed, graph, own };
  }

  private async planIn(tx: Tx, scope: Scope, file: PolicyFile): Promise<Planned> {
    const rows = await this.store.readSchema(tx, scope.envId);
    const fromFile = modelOfFile(file);
    // A file without `elements_configs` leaves the environment's configs as they are (files written
    // before configs could be in them keep working); `elements_configs: {}` removes every one.
    if (file.elements_configs === undefined) fromFile.configs = modelOfGraph(rows).configs;
    // What is managed after the apply: approval schema on the resources the file's configs govern.
    // Approval schema on a resource no config governs any more is the environment's own again (as
    // after a DELETE of its config through the elements API): kept only if the file lists it.
    const { managed, graph, own } = this.modelsOf(rows, [...new Set(Object.values(fromFile.configs).flatMap((c) => c.resources))]);
    const problems = [
      ...problemsOf(fromFile, graph, managed),
      ...configProblems(file, fromFile, graph, managed),
      ...proxyConfigProblems(file),
    ];
    if (problems.length)
      throw invalidInput(
        `The policy names what it does not define: ${problems
          .slice(0, 5)
          .map((p) => `${p.path} ${p.message}`)
          .join('; ')}.`,
        problems,
      );
    // Managed parts written in the file anyway are left out: they are the service's.
    const desired: PolicyModel = { roles: fromFile.roles, resources: Object.create(null), configs: fromFile.configs };
    for (const [key, r] of Object.entries(fromFile.resources)) {
      desired.resources[key] = managed.ownParts(key, r, { ...graph.resources[key]?.relations, ...r.relations });
    }
    const have = conditionsOfGraph(await this.store.readConditions(tx, scope.envId));
    const want = conditionsOfFile(file);
    const conditionProblems = conditionsProblems(want, desired);
    if (conditionProblems.length)
      throw invalidInput(
        `The policy's conditions do not hold: ${conditionProblems
          .slice(0, 5)
          .map((p) => `${p.path} ${p.message}`)
          .join('; ')}.`,
        conditionProblems,
      );
    const proxyConfigs = proxyConfigsOfFile(file);
    const changes = [
      ...planOf(own, desired, new Set(rows.resources.map((r) => r.key)), managed),
      ...planConditions(have, want),
      ...planProxyConfigs(proxyConfigsOfGraph(rows.proxyConfigs), proxyConfigs),
    ];
    const removed = (kind: Change['kind']) => changes.filter((c) => c.op === 'delete' && c.kind === kind);
    const used = await this.store.inUse(tx, scope.envId, {
      resources: removed('resource').map((c) => c.key),
      resourceRoles: removed('resource_role').map((c) => ({ resource: c.resource!, key: c.name! })),
      relations: removed('relation')
        .filter((c) => !changes.some((x) => x.op === 'create' && x.key === c.key))
        .map((c) => ({ resource: c.resource!, key: c.name! })),
      roles: removed('role').map((c) => c.key),
      configs: removed('elements_config').map((c) => c.key),
    });
    for (const u of used) {
      const c = changes.find((x) => x.op === 'delete' && x.kind === kindOf(u) && x.key === changeKeyOf(u));
      if (c) c.in_use = { facts: u.n, what: u.what };
    }
    // Attributes retyped (or removed) under condition sets the file keeps: in use, as the attribute routes say (409).
    for (const a of attributesInUse(have, want, own, desired)) {
      const what = `condition set(s) ${a.sets.map((k) => JSON.stringify(k)).join(', ')} naming its retyped attribute(s) ${a.attributes.map((k) => JSON.stringify(k)).join(', ')}`;
      used.push({ kind: 'resource', resource: a.resource, key: a.resource, n: a.sets.length, what });
      const c = changes.find((x) => x.op === 'update' && x.key === a.resource && (x.kind === 'resource' || x.kind === 'user_attributes'));
      if (c) c.in_use = { facts: a.sets.length, what };
    }
    // A relation whose subject changes is removed and made again: its tuples cannot stay.
    for (const c of removed('relation')) {
      if (c.in_use || !changes.some((x) => x.op === 'create' && x.key === c.key)) continue;
      const [u] = await this.store.inUse(tx, scope.envId, {
        resources: [],
        resourceRoles: [],
        roles: [],
        configs: [],
        relations: [{ resource: c.resource!, key: c.name! }],
      });
      if (u) {
        c.in_use = { facts: u.n, what: u.what };
        used.push(u);
      }
    }
    return { rows, managed, desired, conditions: { have, want }, proxyConfigs, changes, used };
  }

  /** The changes in an order each step's references exist: removals, resources, relations, roles, hierarchy, derivations. */
  private async write(tx: Tx, env: string, { rows, managed, desired, changes, conditions, proxyConfigs }: Planned) {
    const at = now();
    const of = (op: Change['op'], kind: Change['kind']) => changes.filter((c) => c.op === op && c.kind === kind);
    const graphResource = (key: string) => rows.resources.find((r) => r.key === key);

    // Conditions that go: rules first, then sets (children before parents), before the schema they name.
    for (const c of of('delete', 'set_rule')) await this.store.deleteSetRule(tx, { env, key: c.key });
    for (const key of parentsFirst(
      conditions.have.sets,
      of('delete', 'condition_set').map((c) => c.key),
    ).reverse())
      await this.store.deleteConditionSet(tx, { env, key });

    // Elements configs that go, with their operation approvals and access requests (as a DELETE of
    // the config through the elements API; the grants approvals made stay, as role assignments).
    for (const c of of('delete', 'elements_config'))
      await this.elements.deleteConfigIn(tx, env, rows.configs.find((x) => x.key === c.key)!.id);

    for (const c of of('delete', 'derivation')) {
      await this.store.deleteDerivation(tx, derivationKey(env, c.resource!, derivationOf(modelOfGraph(rows), c)!));
    }
    for (const c of of('delete', 'relation')) await this.store.deleteRelation(tx, { env, resource: c.resource!, key: c.name! });
    for (const c of of('delete', 'resource_role')) await this.store.deleteResourceRole(tx, { env, resource: c.resource!, key: c.name! });
    // Groups that go are taken off the roles that hold them (schema/deleteActionGroup); the roles the file keeps are written below.
    for (const c of of('delete', 'action_group')) await this.store.deleteActionGroup(tx, { env, resource: c.resource!, key: c.name! });
    for (const c of of('delete', 'role')) await this.store.deleteRole(tx, { env, key: c.key });
    for (const c of of('delete', 'resource')) await this.store.deleteResource(tx, { env, key: c.key });

    // Resources: new ones with their actions; changed ones get their fields and action set (managed actions kept).
    const touched = new Set(
      changes.filter((c) => c.kind === 'action' || (c.kind === 'resource' && c.op === 'update')).map((c) => c.resource!),
    );
    for (const c of of('create', 'resource')) {
      const r = desired.resources[c.key];
      const actions = actionsFor(r.actions, {}, []);
      await this.store.createResource(tx, {
        env,
        id: randomUUID(),
        key: c.key,
        name: r.name,
        description: r.description,
        ...actions,
        attributes_json: r.attributes,
        nowIso: at,
      });
    }
    for (const key of touched) {
      const r = desired.resources[key];
      const g = graphResource(key)!;
      const previous = (g.actions_json ? JSON.parse(g.actions_json) : {}) as Record<string, Record<string, unknown>>;
      const kept = (g.actions ?? []).filter((a) => !Object.hasOwn(r.actions, a) && managed.action(key, a));
      const actions = actionsFor(r.actions, previous, kept);
      await this.store.updateResource(tx, {
        env,
        key,
        name: r.name,
        description: r.description,
        setDescription: true,
        ...actions,
        attributes_json: r.attributes,
        nowIso: at,
      });
    }
    // Action groups, once their resource's actions are written and before the roles that name them.
    for (const c of [...of('create', 'action_group'), ...of('update', 'action_group')]) {
      const g = desired.resources[c.resource!].action_groups[c.name!];
      const fields = { env, resource: c.resource!, key: c.name!, name: g.name, description: g.description, actions: g.actions, nowIso: at };
      if (c.op === 'create') await this.store.createActionGroup(tx, { ...fields, id: randomUUID(), attributes_json: '{}' });
      else await this.store.updateActionGroup(tx, { ...fields, attributes_json: null, setDescription: true });
    }
    await this.writeConfigs(tx, env, changes, desired, rows, at);
    for (const c of of('create', 'relation')) {
      const subject = desired.resources[c.resource!].relations[c.name!];
      await this.store.createRelation(tx, {
        env,
        resource: c.resource!,
        id: randomUUID(),
        key: c.name!,
        name: c.name!,
        description: null,
        subject_resource: subject,
        nowIso: at,
      });
    }
    for (const c of [...of('create', 'resource_role'), ...of('update', 'resource_role')]) {
      const role = desired.resources[c.resource!].roles[c.name!];
      const fields = {
        env,
        resource: c.resource!,
        key: c.name!,
        name: role.name,
        description: role.description,
        permissions: role.permissions,
        nowIso: at,
      };
      if (c.op === 'create') await this.store.createResourceRole(tx, { ...fields, id: randomUUID() });
      else await this.store.updateResourceRole(tx, { ...fields, setDescription: true });
    }
    for (const c of [...of('create', 'role'), ...of('update', 'role')]) {
      const role = desired.roles[c.key];
      const fields = { env, key: c.key, name: role.name, description: role.description, permissions: role.permissions, nowIso: at };
      if (c.op === 'create') await this.store.createRole(tx, { ...fields, id: randomUUID() });
      else await this.store.updateRole(tx, { ...fields, setDescription: true });
    }
    // Hierarchy: roles made or whose `extends` differs get exactly the file's parents (a cycle answers 422).
    for (const c of changes.filter(
      (x) => (x.kind === 'role' || x.kind === 'resource_role') && (x.op === 'create' || x.fields?.includes('extends')),
    )) {
      const resource = c.kind === 'role' ? null : c.resource!;
      const role = resource === null ? desired.roles[c.key] : desired.resources[resource].roles[c.name!];
      await this.store.clearRoleParents(tx, { env, resource, role: c.name! });
      for (const parent of role.extends) {
        const [row] = await this.store.addRoleParent(tx, { env, resource, role: c.name!, parent, nowIso: at });
        if (row?.cycle !== false) {
          const path = resource === null ? `/body/roles/${c.name}/extends` : `/body/resources/${resource}/roles/${c.name}/extends`;
          throw invalidInput(
            `Role ${JSON.stringify(c.key)} cannot extend ${JSON.stringify(parent)}: that would make a role hierarchy cycle.`,
            [{ path, message: 'would make a role hierarchy cycle' }],
          );
        }
      }
    }
    for (const c of [...of('update', 'derivation'), ...of('create', 'derivation')]) {
      const d = derivationOf(desired, c)!;
      const key = derivationKey(env, c.resource!, d);
      if (c.op === 'update') await this.store.deleteDerivation(tx, key);
      await this.store.createDerivation(tx, {
        ...key,
        no_direct_roles_on_object: d.no_direct_roles_on_object,
        id: randomUUID(),
        nowIso: at,
      });
    }
    await this.writeConditions(tx, env, changes, conditions, at);
    await this.writeProxyConfigs(tx, env, changes, proxyConfigs, at);
  }

  /** Proxy configs (their URL-mapping rules): they name no record, so they go last, with the API's statements. */
  private async writeProxyConfigs(tx: Tx, env: string, changes: Change[], want: ProxyConfigsModel | undefined, at: string) {
    for (const c of changes.filter((x) => x.kind === 'proxy_config')) {
      if (c.op === 'delete') {
        await this.store.deleteProxyConfig(tx, { env, key: c.key });
        continue;
      }
      const cfg = want![c.key];
      const fields = {
        env,
        key: c.key,
        name: cfg.name,
        authMechanism: cfg.auth_mechanism,
        rulesJson: JSON.stringify(cfg.mapping_rules),
        nowIso: at,
      };
      if (c.op === 'create') await this.store.createProxyConfig(tx, { ...fields, id: randomUUID() });
      else await this.store.updateProxyConfig(tx, fields);
    }
  }

  /**
   * Elements configs made or changed, right after the resources they govern exist and before roles
   * and derivations that may name their `_Reviewer_` / `_Approved_` roles: the elements API's
   * write (its statements, govern step and all), in this transaction. A webhook is left as it is.
   */
  private async writeConfigs(tx: Tx, env: string, changes: Change[], desired: PolicyModel, rows: SchemaRows, at: string) {
    for (const c of changes.filter((x) => x.kind === 'elements_config' && x.op !== 'delete')) {
      const cfg = desired.configs[c.key];
      const write = configWrite(
        { name: cfg.name, settings: { resources: cfg.resources }, roles_to_levels: cfg.roles_to_levels },
        webhookWrite('keep'),
        at,
      );
      const govern = (found: Parameters<typeof governed>[1]) => governed(cfg.resources, found);
      if (c.op === 'create')
        await this.elements.writeConfigIn(
          tx,
          env,
          { ...write, create: true, id: randomUUID(), key: c.key, elements_type: cfg.elements_type },
          govern,
        );
      else
        await this.elements.writeConfigIn(tx, env, { ...write, create: false, id: rows.configs.find((x) => x.key === c.key)!.id }, govern);
    }
  }

  /** User attributes, then sets (parents first), then rules: each after what it names. */
  private async writeConditions(tx: Tx, env: string, changes: Change[], { want }: Planned['conditions'], at: string) {
    const of = (op: Change['op'], kind: Change['kind']) => changes.filter((c) => c.op === op && c.kind === kind);
    if (of('update', 'user_attributes').length) {
      const attrs = JSON.parse(want.userAttributes) as Record<string, { type: string; description: string | null }>;
      const blocks = Object.fromEntries(
        Object.entries(attrs).map(([k, a]) => [k, { ...a, id: randomUUID(), created_at: at, updated_at: at }]),
      );
      await this.store.writeUserAttributes(tx, { env, id: randomUUID(), attributes_json: JSON.stringify(blocks), nowIso: at });
    }
    const made = of('create', 'condition_set').map((c) => c.key);
    const updated = of('update', 'condition_set').map((c) => c.key);
    for (const key of parentsFirst(want.sets, [...made, ...updated])) {
      const s = want.sets[key];
      if (made.includes(key))
        await this.store.createConditionSet(tx, {
          env,
          id: randomUUID(),
          key,
          name: s.name,
          description: s.description,
          type: s.type,
          resource: s.resource,
          parent: s.parent,
          conditions_json: s.conditions,
          nowIso: at,
        });
      else
        await this.store.updateConditionSet(tx, {
          env,
          key,
          name: s.name,
          description: s.description,
          setDescription: true,
          conditions_json: s.conditions,
          parent: s.parent,
          setParent: true,
          nowIso: at,
        });
    }
    for (const c of of('create', 'set_rule')) {
      const r = want.rules[c.key];
      await this.store.createSetRule(tx, { env, id: randomUUID(), key: c.key, ...r, nowIso: at });
    }
  }
}

/** The parameters naming one derivation of `resource` in the derivation statements. */
function derivationKey(env: string, resource: string, d: NonNullable<ReturnType<typeof derivationOf>>) {
  return { env, resource, role: d.role, on_resource: d.on_resource, from_role: d.from_role, relation: d.linked_by_relation };
}

/** The stored action set: the file's actions (ids and extra fields of existing ones kept) plus the managed ones `kept`. */
function actionsFor(
  actions: PolicyModel['resources'][string]['actions'],
  previous: Record<string, Record<string, unknown>>,
  kept: string[],
) {
  const blocks: Record<string, Record<string, unknown>> = Object.create(null);
  for (const [key, a] of Object.entries(actions)) {
    const before = Object.hasOwn(previous, key) ? previous[key] : {};
    blocks[key] = { ...before, id: before.id ?? randomUUID(), name: a.name, description: a.description };
  }
  for (const key of kept) blocks[key] = Object.hasOwn(previous, key) ? previous[key] : { id: randomUUID(), name: key, description: null };
  return { actions: Object.keys(blocks), actions_json: JSON.stringify(blocks) };
}
