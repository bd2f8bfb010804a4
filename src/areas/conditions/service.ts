import { createHash, randomUUID } from 'node:crypto';
import { type Scope, scoped } from '../../auth/types';
import type { Tx } from '../../db/db';
import { duplicate, invalidInput, invalidState, notFound } from '../../errors';
import type { Page } from '../../http/paging';
import { Duplicate } from '../../db/storeErrors';
import type { ConditionSetNode, ConditionsStore, SetRuleNode } from './store';
import type { Static } from '../../http/schema';
import {
  ATTRIBUTE_TYPES,
  type attributeCreate,
  type attributeUpdate,
  type ruleBody,
  type ruleListQuery,
  type setCreate,
  type setUpdate,
} from './schemas';
import { type AttributeType, attributesNamed, conditionProblems } from './validate';

/** Permit's built-in resource whose attributes are the user attributes. */
export const USER_RESOURCE = '__user';

const now = () => new Date().toISOString();

/** An attribute as kept in its resource's `attributes` map. */
interface AttributeBlock {
  type: AttributeType;
  description?: string | null;
  id?: string;
  created_at?: string;
  updated_at?: string;
}
type Blocks = Record<string, AttributeBlock>;

const blocksOf = (json: string | null | undefined): Blocks => {
  const parsed = json ? (JSON.parse(json) as unknown) : {};
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Blocks) : {};
};
/** The declared attributes' types: blocks whose `type` is one of Permit's. */
export const typesOf = (json: string | null | undefined): Record<string, AttributeType> =>
  Object.fromEntries(
    Object.entries(blocksOf(json))
      .filter(([, b]) => (ATTRIBUTE_TYPES as readonly string[]).includes(b?.type as string))
      .map(([k, b]) => [k, b.type]),
  );
/** A stable UUID-shaped id for an attribute declared without one (through a resource's `attributes`). */
const derivedId = (resourceId: string, key: string) => {
  const h = createHash('sha256').update(`${resourceId}/${key}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/** The key of the attribute `ref` names in the map: its key, else the attribute whose id it is. */
const attributeKeyOf = (resourceId: string, blocks: Blocks, ref: string): string | undefined => {
  if (Object.hasOwn(blocks, ref)) return ref;
  return Object.keys(blocks).find((k) => (blocks[k]?.id ?? derivedId(resourceId, k)) === ref);
};

/** The request bodies, as their route schemas admit them. */
export type AttributeInput = Static<typeof attributeCreate>;
export type AttributePatch = Static<typeof attributeUpdate>;
export type ConditionSetInput = Static<typeof setCreate>;
export type ConditionSetPatch = Static<typeof setUpdate>;
export type SetRuleInput = Static<typeof ruleBody>;
export type RuleFilter = Pick<Static<typeof ruleListQuery>, 'user_set' | 'permission' | 'resource_set'>;

/** Attribute schemas, condition sets and set rules (docs/behaviour.md section 17). */
export class ConditionsService {
  constructor(private readonly store: ConditionsStore) {}

  // ---- attribute schemas

  private attributeView(scope: Scope, r: { id: string; key: string }, key: string, b: AttributeBlock) {
    return {
      id: b.id ?? derivedId(r.id, key),
      key,
      type: b.type,
      description: b.description ?? null,
      resource_id: r.id,
      resource_key: r.key,
      ...scoped(scope),
      created_at: b.created_at ?? null,
      updated_at: b.updated_at ?? b.created_at ?? null,
      built_in: false,
    };
  }

  private async mustResource(tx: Tx, scope: Scope, ref: string, lock = false) {
    const r = await this.store.resource(tx, scope.envId, ref, lock);
    if (!r) throw notFound('Resource', ref);
    return r;
  }

  async listAttributes(scope: Scope, resource: string, page: Page) {
    const r = await this.store.read((tx) => this.store.resource(tx, scope.envId, resource));
    if (!r) {
      if (resource === USER_RESOURCE) return [];
      throw notFound('Resource', resource);
    }
    const blocks = blocksOf(r.attributes_json);
    return Object.keys(typesOf(r.attributes_json))
      .map((k) => this.attributeView(scope, r, k, blocks[k]))
      .slice(page.skip, page.skip + page.perPage);
  }

  async getAttribute(scope: Scope, resource: string, ref: string) {
    const r = await this.store.read((tx) => this.store.resource(tx, scope.envId, resource));
    const blocks = blocksOf(r?.attributes_json);
    const key = r ? attributeKeyOf(r.id, blocks, ref) : undefined;
    if (!r || key === undefined || !Object.hasOwn(typesOf(r.attributes_json), key)) throw notFound('Attribute', ref);
    return this.attributeView(scope, r, key, blocks[key]);
  }

  async createAttribute(scope: Scope, resource: string, input: AttributeInput) {
    return this.store.write(async (tx) => {
      let r = await this.store.resource(tx, scope.envId, resource, true);
      if (!r && resource === USER_RESOURCE) {
        await this.store.createBuiltInResource(tx, scope.envId, { id: randomUUID(), key: USER_RESOURCE, name: 'User', nowIso: now() });
        r = await this.mustResource(tx, scope, resource, true);
      }
      if (!r) throw notFound('Resource', resource);
      const blocks = blocksOf(r.attributes_json);
      if (Object.hasOwn(blocks, input.key)) throw duplicate('Attribute', input.key);
      const stamp = now();
      const block: AttributeBlock = {
        type: input.type,
        description: input.description ?? null,
        id: randomUUID(),
        created_at: stamp,
        updated_at: stamp,
      };
      blocks[input.key] = block;
      await this.store.writeAttributes(tx, 'create', scope.envId, {
        resource: r.key,
        attributes_json: JSON.stringify(blocks),
        before: null,
        after: { key: `${r.key}.${input.key}`, ...block },
        nowIso: stamp,
      });
      return this.attributeView(scope, r, input.key, block);
    });
  }

  async updateAttribute(scope: Scope, resource: string, ref: string, patch: AttributePatch) {
    return this.store.write(async (tx) => {
      const r = await this.mustResource(tx, scope, resource, true);
      const blocks = blocksOf(r.attributes_json);
      const key = attributeKeyOf(r.id, blocks, ref);
      if (key === undefined || !Object.hasOwn(typesOf(r.attributes_json), key)) throw notFound('Attribute', ref);
      const before = blocks[key];
      if (patch.type !== undefined && patch.type !== before.type)
        await this.refuseInUse(tx, scope, r.key, [key], 'its type cannot change while they use it');
      const stamp = now();
      const after: AttributeBlock = {
        ...before,
        type: patch.type ?? before.type,
        description: patch.description === undefined ? (before.description ?? null) : patch.description,
        id: before.id ?? derivedId(r.id, key),
        updated_at: stamp,
      };
      blocks[key] = after;
      await this.store.writeAttributes(tx, 'update', scope.envId, {
        resource: r.key,
        attributes_json: JSON.stringify(blocks),
        before: { key: `${r.key}.${key}`, ...before },
        after: { key: `${r.key}.${key}`, ...after },
        nowIso: stamp,
      });
      return this.attributeView(scope, r, key, after);
    });
  }

  async deleteAttribute(scope: Scope, resource: string, ref: string) {
    await this.store.write(async (tx) => {
      const r = await this.mustResource(tx, scope, resource, true);
      const blocks = blocksOf(r.attributes_json);
      const key = attributeKeyOf(r.id, blocks, ref);
      if (key === undefined) throw notFound('Attribute', ref);
      await this.refuseInUse(tx, scope, r.key, [key], 'change or delete them first');
      const before = blocks[key];
      delete blocks[key];
      await this.store.writeAttributes(tx, 'delete', scope.envId, {
        resource: r.key,
        attributes_json: JSON.stringify(blocks),
        before: { key: `${r.key}.${key}`, ...before },
        after: null,
        nowIso: now(),
      });
    });
  }

  /**
   * 409 when condition sets name any of the attributes `keys` of `resource` (`user.<key>` for
   * `__user`, `resource.<key>` in sets over the resource), naming each attribute and its sets.
   */
  private async refuseInUse(tx: Tx, scope: Scope, resource: string, keys: string[], advice: string) {
    if (!keys.length) return;
    const sets = (await this.store.allSets(tx, scope.envId)).map((s) => ({ ...s, names: attributesNamed(JSON.parse(s.conditions_json)) }));
    const used = keys.flatMap((key) => {
      const users = sets
        .filter((s) =>
          resource === USER_RESOURCE ? s.names.includes(`user.${key}`) : s.resource === resource && s.names.includes(`resource.${key}`),
        )
        .map((s) => JSON.stringify(s.key));
      return users.length ? [`Attribute "${key}" of "${resource}" is used by the condition set(s) ${users.join(', ')}`] : [];
    });
    if (used.length) throw invalidState(`${used.join('; ')}; ${advice}.`);
  }

  /**
   * A resource's attribute map changed as a whole (a resource PATCH or PUT with `attributes`, or
   * its deletion: `after` null): 409 naming the sets when it removes or retypes attributes that
   * condition sets use, as removing or retyping one attribute does. Deleting a resource other
   * than `__user` takes its resource sets with it (schema/deleteDanglingConditions): no refusal.
   */
  async refuseAttributeChanges(tx: Tx, scope: Scope, resource: string, before: string | null | undefined, after: string | null) {
    if (after === null && resource !== USER_RESOURCE) return;
    const was = typesOf(before);
    const next = typesOf(after);
    const changed = Object.keys(was).filter((k) => !Object.hasOwn(next, k) || next[k] !== was[k]);
    await this.refuseInUse(tx, scope, resource, changed, 'keep them as they are, or change or delete those sets first');
  }

  // ---- condition sets

  private setView(scope: Scope, s: ConditionSetNode) {
    return {
      id: s.id,
      key: s.key,
      name: s.name,
      description: s.description ?? null,
      type: s.type,
      autogenerated: s.autogenerated ?? false,
      resource_id: s.resource_id ?? null,
      resource: null,
      parent_id: s.parent_id ?? null,
      conditions: JSON.parse(s.conditions_json) as Record<string, unknown>,
      ...scoped(scope),
      created_at: s.created_at,
      updated_at: s.updated_at,
    };
  }

  private async mustSet(tx: Tx, scope: Scope, ref: string) {
    const s = await this.store.getSet(tx, scope.envId, ref);
    if (!s) throw notFound('ConditionSet', ref);
    return s;
  }

  /** 422 naming every condition that does not fit the declared attributes of the set's type and resource. */
  private async checkConditions(tx: Tx, scope: Scope, type: 'userset' | 'resourceset', resource: string | null, conditions: unknown) {
    const users = await this.store.resource(tx, scope.envId, USER_RESOURCE);
    const res = resource ? await this.store.resource(tx, scope.envId, resource) : null;
    const problems = conditionProblems(conditions, {
      type,
      resource,
      userAttributes: typesOf(users?.attributes_json),
      resourceAttributes: typesOf(res?.attributes_json),
    });
    if (problems.length)
      throw invalidInput(
        `${problems.length} condition(s) do not fit the declared attributes: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`,
        problems.map((p) => ({ path: `/body/conditions/${p.path}`, message: p.message })),
      );
    const text = JSON.stringify(conditions);
    if (text.length > 64 * 1024)
      throw invalidInput('conditions are larger than 64 KiB serialized.', [{ path: '/body/conditions', message: 'at most 64 KiB' }]);
    return text;
  }

  /** The parent a set may narrow: a set of the same type (and resource), never itself or one of its descendants. */
  private async parentFor(tx: Tx, scope: Scope, ref: string, type: string, resource: string | null, self?: string) {
    const parent = await this.store.getSet(tx, scope.envId, ref);
    const bad = (message: string) => invalidInput(message, [{ path: '/body/parent_id', message }]);
    if (!parent) throw bad(`parent condition set "${ref}" does not exist`);
    if (parent.type !== type || (parent.resource ?? null) !== resource)
      throw bad(
        `parent "${parent.key}" is a ${parent.type}${parent.resource ? ` of ${parent.resource}` : ''}: a set narrows a set of its own type and resource`,
      );
    for (let p: ConditionSetNode | null = parent; p; p = p.parent ? await this.store.getSet(tx, scope.envId, p.parent) : null)
      if (self !== undefined && p.key === self) throw bad(`parent "${parent.key}" narrows "${self}": a set cannot narrow itself`);
    return parent;
  }

  async listSets(scope: Scope, page: Page, type?: string) {
    const { data } = await this.store.listSets(scope.envId, type ?? null, page);
    return data.map((s) => this.setView(scope, s));
  }

  async getSet(scope: Scope, ref: string) {
    return this.setView(scope, await this.store.read((tx) => this.mustSet(tx, scope, ref)));
  }

  async createSet(scope: Scope, input: ConditionSetInput) {
    const type = input.type ?? 'userset';
    return this.store.write(async (tx) => {
      let resource: string | null = null;
      if (type === 'resourceset') {
        if (!input.resource_id)
          throw invalidInput('A resource set needs resource_id (the key or id of its resource).', [
            { path: '/body/resource_id', message: 'is required for a resourceset' },
          ]);
        const r = await this.store.resource(tx, scope.envId, input.resource_id);
        if (!r)
          throw invalidInput(`resource "${input.resource_id}" does not exist`, [
            { path: '/body/resource_id', message: 'no such resource' },
          ]);
        resource = r.key;
      } else if (input.resource_id) {
        throw invalidInput('A user set has no resource_id.', [{ path: '/body/resource_id', message: 'only a resourceset has one' }]);
      }
      const parent = input.parent_id ? await this.parentFor(tx, scope, input.parent_id, type, resource) : null;
      const conditions_json = await this.checkConditions(tx, scope, type, resource, input.conditions ?? {});
      try {
        await this.store.createSet(tx, scope.envId, {
          id: randomUUID(),
          key: input.key,
          name: input.name,
          description: input.description ?? null,
          type,
          resource,
          parent: parent?.key ?? null,
          conditions_json,
          nowIso: now(),
        });
      } catch (err) {
        if (err instanceof Duplicate) throw duplicate('ConditionSet', input.key);
        throw err;
      }
      return this.setView(scope, await this.mustSet(tx, scope, input.key));
    });
  }

  async updateSet(scope: Scope, ref: string, patch: ConditionSetPatch) {
    return this.store.write(async (tx) => {
      const s = await this.mustSet(tx, scope, ref);
      const conditions_json =
        patch.conditions !== undefined ? await this.checkConditions(tx, scope, s.type, s.resource, patch.conditions) : null;
      const parent =
        patch.parent_id === undefined
          ? undefined
          : patch.parent_id === null
            ? null
            : await this.parentFor(tx, scope, patch.parent_id, s.type, s.resource, s.key);
      await this.store.updateSet(tx, scope.envId, s.key, {
        name: patch.name ?? null,
        description: patch.description ?? null,
        setDescription: patch.description !== undefined,
        conditions_json,
        parent: parent?.key ?? null,
        setParent: parent !== undefined,
        nowIso: now(),
      });
      return this.setView(scope, await this.mustSet(tx, scope, s.key));
    });
  }

  async deleteSet(scope: Scope, ref: string) {
    await this.store.write(async (tx) => {
      const s = await this.mustSet(tx, scope, ref);
      const { rules, children } = await this.store.setUses(tx, scope.envId, s.key);
      if (rules.length || children.length)
        throw invalidState(
          `Condition set "${s.key}" is used by ${[
            ...(rules.length ? [`the set rule(s) ${rules.map((r) => JSON.stringify(r)).join(', ')}`] : []),
            ...(children.length ? [`the set(s) narrowing it ${children.map((c) => JSON.stringify(c)).join(', ')}`] : []),
          ].join(' and ')}; delete them first.`,
        );
      await this.store.deleteSet(tx, scope.envId, s.key);
    });
  }

  // ---- set rules

  private ruleView(scope: Scope, r: SetRuleNode) {
    return {
      id: r.id,
      key: r.key,
      user_set: r.user_set,
      permission: r.permission,
      resource_set: r.resource_set,
      is_role: r.is_role,
      is_resource: r.is_resource,
      ...scoped(scope),
      created_at: r.created_at,
      updated_at: r.updated_at,
    };
  }

  static ruleKey(r: { user_set: string; permission: string; resource_set: string; is_role?: boolean; is_resource?: boolean }) {
    return `${r.is_role ? 'role:' : ''}${r.user_set}|${r.permission}|${r.is_resource ? 'resource:' : ''}${r.resource_set}`;
  }

  /** What a rule names must exist: the permission's resource and action, the user set (or role) and the resource set (or type) over that resource. */
  private async checkRule(tx: Tx, scope: Scope, input: SetRuleInput) {
    const problems: { path: string; message: string }[] = [];
    const colon = input.permission.indexOf(':');
    const resource = colon > 0 ? input.permission.slice(0, colon) : '';
    const action = colon > 0 ? input.permission.slice(colon + 1) : '';
    const targets = await this.store.ruleTargets(tx, scope.envId, resource, input.is_role ? input.user_set : null);
    if (!resource || !action) problems.push({ path: '/body/permission', message: 'must be "<resource>:<action>"' });
    else if (targets.actions === null) problems.push({ path: '/body/permission', message: `resource "${resource}" does not exist` });
    else if (!targets.actions.includes(action))
      problems.push({ path: '/body/permission', message: `resource "${resource}" has no action "${action}"` });
    let userSet = input.user_set;
    if (input.is_role) {
      if (!targets.role_exists) problems.push({ path: '/body/user_set', message: `tenant role "${input.user_set}" does not exist` });
    } else {
      const us = await this.store.getSet(tx, scope.envId, input.user_set);
      if (us?.type !== 'userset') problems.push({ path: '/body/user_set', message: `user set "${input.user_set}" does not exist` });
      else userSet = us.key;
    }
    let resourceSet = input.resource_set;
    if (input.is_resource) {
      if (input.resource_set !== resource)
        problems.push({
          path: '/body/resource_set',
          message: `with is_resource, resource_set is the permission's resource type ("${resource}")`,
        });
    } else {
      const rs = await this.store.getSet(tx, scope.envId, input.resource_set);
      if (rs?.type !== 'resourceset')
        problems.push({ path: '/body/resource_set', message: `resource set "${input.resource_set}" does not exist` });
      else if ((rs.resource ?? null) !== resource)
        problems.push({ path: '/body/resource_set', message: `resource set "${rs.key}" is over "${rs.resource}", not "${resource}"` });
      else resourceSet = rs.key;
    }
    if (problems.length) throw invalidInput(problems.map((p) => `${p.path}: ${p.message}`).join('; '), problems);
    return {
      ...input,
      user_set: userSet,
      resource_set: resourceSet,
      is_role: input.is_role ?? false,
      is_resource: input.is_resource ?? false,
    };
  }

  /** Permit's create answers a list of ConditionSetRuleRead. Creating a rule that exists answers it again. */
  async createRule(scope: Scope, input: SetRuleInput) {
    return this.store.write(async (tx) => {
      const rule = await this.checkRule(tx, scope, input);
      const created = await this.store.createRule(tx, scope.envId, {
        id: randomUUID(),
        key: ConditionsService.ruleKey(rule),
        ...rule,
        nowIso: now(),
      });
      return [this.ruleView(scope, created)];
    });
  }

  async deleteRule(scope: Scope, input: SetRuleInput) {
    await this.store.write(async (tx) => {
      const key = ConditionsService.ruleKey({ ...input });
      if (!(await this.store.deleteRule(tx, scope.envId, key))) throw notFound('SetRule', key);
    });
  }

  async listRules(scope: Scope, f: RuleFilter, page: Page) {
    const { data } = await this.store.listRules(
      scope.envId,
      { user_set: f.user_set ?? null, permission: f.permission ?? null, resource_set: f.resource_set ?? null },
      page,
    );
    return data.map((r) => this.ruleView(scope, r));
  }
}
