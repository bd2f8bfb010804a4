import { randomUUID } from 'node:crypto';
import type { Scope } from '../../auth/types';
import type { Tx } from '../../db/db';
import { AppError, invalidInput, notFound } from '../../errors';
import { envelopeOf, listAnswer, type Page } from '../../http/paging';
import { now } from '../../util/time';
import { attributesJson } from '../../util/attributes';
import type { HierarchyService } from './hierarchyService';
import type { Derivation, ResourceNode, SchemaStore } from './store';
import { actionRecord } from './actionsService';
import { type ActionBlock, actionsOf, derivationView, relationView, resourceRoleView, resourceView } from './views';
import type { Static } from '../../http/schema';
import type { relationCreate } from './schemas';
import { roleOf, relationOf } from './labels';

export interface When {
  no_direct_roles_on_object?: boolean;
}
export interface Rule {
  role: string;
  on_resource: string;
  linked_by_relation: string;
  when?: When;
}
export interface RoleBlock {
  name?: string;
  description?: string | null;
  permissions?: string[];
  granted_to?: { users_with_role?: Rule[]; when?: When };
  extends?: string[];
}
export interface ResourceInput {
  key: string;
  name: string;
  description?: string | null;
  actions: Record<string, ActionBlock>;
  relations?: Record<string, string>;
  roles?: Record<string, RoleBlock>;
  attributes?: Record<string, unknown>;
}
export type ResourcePatch = Partial<Omit<ResourceInput, 'key'>>;
/** A relation as its route schema admits it. */
export type RelationInput = Static<typeof relationCreate>;

/**
 * Checks a change of a resource's whole attribute map (`after` null: the resource is deleted) in
 * the write's transaction; the conditions area refuses one that takes or retypes attributes its
 * condition sets use (docs/behaviour.md section 17).
 */
export type AttributeGuard = (
  tx: Tx,
  scope: Scope,
  resource: string,
  before: string | null | undefined,
  after: string | null,
) => Promise<void>;

/** Resources with their actions, roles, relations and role derivations (docs/behaviour.md section 3). */
export class SchemaService {
  constructor(
    private readonly store: SchemaStore,
    private readonly hierarchy: HierarchyService,
    private readonly attributeGuard: AttributeGuard = async () => {},
  ) {}

  /** A resource view whose roles carry `extends`. */
  private async withRoleExtends(scope: Scope, view: ReturnType<typeof resourceView>, tx?: Tx) {
    const roles = await this.hierarchy.withExtends(scope, view.key, Object.values(view.roles), tx);
    return { ...view, roles: Object.fromEntries(roles.map((r) => [r.key, r])) };
  }

  private async roleWithExtends(scope: Scope, tx: Tx, resource: string, key: string) {
    const view = resourceRoleView(scope, await this.store.mustResourceRole(tx, scope.envId, resource, key));
    return (await this.hierarchy.withExtends(scope, resource, [view], tx))[0];
  }

  // ---- resources

  async createResource(scope: Scope, input: ResourceInput) {
    return this.store.write(async (tx) => {
      const actions = encodeActions(input.actions, {});
      await this.store.createResource(tx, scope.envId, {
        id: randomUUID(),
        key: input.key,
        name: input.name,
        description: input.description ?? null,
        ...actions,
        attributes_json: attributesJson(input.attributes ?? {})!,
        nowIso: now(),
      });
      await this.applyInline(tx, scope, input.key, actions.actions, input);
      return this.withRoleExtends(scope, resourceView(scope, await this.store.mustResource(tx, scope.envId, input.key)), tx);
    });
  }

  async getResource(scope: Scope, ref: string) {
    return this.withRoleExtends(scope, resourceView(scope, await this.store.read((tx) => this.store.mustResource(tx, scope.envId, ref))));
  }

  async listResources(scope: Scope, search: string | undefined, page: Page, withTotal?: boolean) {
    const { total, data } = await this.store.listResources(scope.envId, search ?? null, page);
    return listAnswer(
      await this.hierarchy.resourcesWithExtends(
        scope,
        data.map((r) => resourceView(scope, r)),
      ),
      total,
      page,
      withTotal,
    );
  }

  /** PATCH: the given actions replace the action set; given roles are upserted, given relations added. */
  async updateResource(scope: Scope, ref: string, patch: ResourcePatch) {
    return this.store.write(async (tx) => {
      const current = await this.store.lockedResource(tx, scope.envId, ref);
      const actions = patch.actions ? encodeActions(patch.actions, JSON.parse(current.actions_json ?? '{}')) : null;
      const attributes_json = attributesJson(patch.attributes) ?? null;
      if (attributes_json !== null) await this.attributeGuard(tx, scope, current.key, current.attributes_json, attributes_json);
      await this.store.updateResource(tx, scope.envId, current.key, {
        name: patch.name ?? null,
        description: patch.description,
        nowIso: now(),
        actions: actions?.actions ?? null,
        actions_json: actions?.actions_json ?? null,
        attributes_json,
      });
      // Set rules on an action the new action set drops go with it.
      if (actions) await this.store.deleteDanglingConditions(tx, scope.envId);
      await this.applyInline(tx, scope, current.key, actions?.actions ?? current.actions ?? [], patch, current);
      return this.withRoleExtends(scope, resourceView(scope, await this.store.mustResource(tx, scope.envId, current.key)), tx);
    });
  }

  /** PUT: Permit's replace, here an upsert (creates the resource when missing). */
  async replaceResource(scope: Scope, ref: string, input: Omit<ResourceInput, 'key'>) {
    const exists = await this.store.read((tx) => this.store.getResource(tx, scope.envId, ref));
    if (!exists) return this.createResource(scope, { ...input, key: ref });
    return this.updateResource(scope, ref, { description: null, ...input });
  }

  async listActions(scope: Scope, ref: string, page: Page) {
    const r = await this.store.read((tx) => this.store.mustResource(tx, scope.envId, ref));
    const blocks = (r.actions_json ? JSON.parse(r.actions_json) : {}) as Record<string, Record<string, unknown>>;
    const all = Object.values(actionsOf(r)).map((a) => actionRecord(scope, r, a.key, { ...blocks[a.key], ...a }));
    return all.slice(page.skip, page.skip + page.perPage);
  }

  /** With everything that hangs on it, the resource sets over it and the set rules on its actions included (one transaction). */
  async deleteResource(scope: Scope, ref: string) {
    const current = await this.store.read((tx) => this.store.mustResource(tx, scope.envId, ref));
    await this.store.write(async (tx) => {
      await this.attributeGuard(tx, scope, current.key, current.attributes_json, null);
      if (!(await this.store.deleteResource(tx, scope.envId, current.key))) throw notFound('Resource', ref);
      await this.store.deleteDanglingConditions(tx, scope.envId);
    });
  }

  /** Relations, then roles, then the roles' derivations (which need the relations). */
  private async applyInline(tx: Tx, scope: Scope, resource: string, actions: string[], input: ResourcePatch, current?: ResourceNode) {
    for (const [key, subject] of Object.entries(input.relations ?? {})) {
      const existing = current?.relations.find((r) => r.key === key);
      if (existing && existing.subject_resource === subject) continue;
      if (existing)
        throw invalidInput(`Relation ${JSON.stringify(key)} already exists with subject ${JSON.stringify(existing.subject_resource)}.`, [
          { path: `/body/relations/${key}`, message: 'cannot change the subject of an existing relation' },
        ]);
      await this.addRelation(tx, scope, resource, { key, name: key, subject_resource: subject }, `/body/relations/${key}`);
    }
    const rules: [string, Rule[]][] = [];
    for (const [key, block] of Object.entries(input.roles ?? {})) {
      checkPermissions(actions, block.permissions ?? [], resource, `/body/roles/${key}/permissions`);
      if (current?.roles.some((r) => r.key === key)) {
        await this.store.updateResourceRole(tx, scope.envId, resource, key, {
          name: block.name ?? null,
          description: block.description,
          permissions: block.permissions ?? null,
          nowIso: now(),
        });
      } else {
        await this.store.createResourceRole(tx, scope.envId, resource, {
          id: randomUUID(),
          key,
          name: block.name ?? key,
          description: block.description ?? null,
          permissions: block.permissions ?? [],
          nowIso: now(),
        });
      }
      if (block.granted_to) rules.push([key, withWhen(block.granted_to)]);
    }
    for (const [role, list] of rules) await this.replaceRules(tx, scope, resource, role, list);
    for (const [key, block] of Object.entries(input.roles ?? {})) {
      if (block.extends) await this.hierarchy.setParents(tx, scope, { resource, key }, block.extends);
    }
  }

  // ---- resource roles

  async createResourceRole(scope: Scope, resourceRef: string, input: RoleBlock & { key: string; name: string }) {
    return this.store.write(async (tx) => {
      const resource = await this.store.lockedResource(tx, scope.envId, resourceRef);
      checkPermissions(grantable(resource), input.permissions ?? [], resource.key, '/body/permissions');
      await this.store.createResourceRole(tx, scope.envId, resource.key, {
        id: randomUUID(),
        key: input.key,
        name: input.name,
        description: input.description ?? null,
        permissions: input.permissions ?? [],
        nowIso: now(),
      });
      if (input.granted_to) await this.replaceRules(tx, scope, resource.key, input.key, withWhen(input.granted_to));
      if (input.extends) await this.hierarchy.setParents(tx, scope, { resource: resource.key, key: input.key }, input.extends);
      return this.roleWithExtends(scope, tx, resource.key, input.key);
    });
  }

  async getResourceRole(scope: Scope, resourceRef: string, ref: string) {
    return this.store.read(async (tx) => {
      const resource = await this.store.mustResource(tx, scope.envId, resourceRef);
      const role = await this.store.mustResourceRole(tx, scope.envId, resource.key, ref);
      return (await this.hierarchy.withExtends(scope, resource.key, [resourceRoleView(scope, role)], tx))[0];
    });
  }

  async listResourceRoles(scope: Scope, resourceRef: string, page: Page) {
    const resource = await this.store.read((tx) => this.store.mustResource(tx, scope.envId, resourceRef));
    const { data } = await this.store.listResourceRoles(scope.envId, resource.key, page);
    // A plain array, as Permit answers (docs/behaviour.md section 14).
    return this.hierarchy.withExtends(
      scope,
      resource.key,
      data.map((r) => resourceRoleView(scope, r)),
    );
  }

  /** PATCH; a given `granted_to` replaces the role's derivations. */
  async updateResourceRole(scope: Scope, resourceRef: string, ref: string, patch: RoleBlock) {
    return this.store.write(async (tx) => {
      const resource = await this.store.lockedResource(tx, scope.envId, resourceRef);
      const role = await this.store.mustResourceRole(tx, scope.envId, resource.key, ref);
      if (patch.permissions) checkPermissions(grantable(resource), patch.permissions, resource.key, '/body/permissions');
      await this.store.updateResourceRole(tx, scope.envId, resource.key, role.key, {
        name: patch.name ?? null,
        description: patch.description,
        permissions: patch.permissions ?? null,
        nowIso: now(),
      });
      if (patch.granted_to) await this.replaceRules(tx, scope, resource.key, role.key, withWhen(patch.granted_to));
      if (patch.extends) await this.hierarchy.setParents(tx, scope, { resource: resource.key, key: role.key }, patch.extends);
      return this.roleWithExtends(scope, tx, resource.key, role.key);
    });
  }

  async deleteResourceRole(scope: Scope, resourceRef: string, ref: string) {
    const role = await this.store.read(async (tx) => {
      const resource = await this.store.mustResource(tx, scope.envId, resourceRef);
      return this.store.mustResourceRole(tx, scope.envId, resource.key, ref);
    });
    if (!(await this.store.deleteResourceRole(scope.envId, role.resource, role.key))) throw notFound('Role', ref);
  }

  // ---- role derivations (implicit grants)

  async addImplicitGrant(scope: Scope, resourceRef: string, roleRef: string, rule: Rule) {
    return this.store.write(async (tx) => {
      const { resource, role } = await this.grantTarget(tx, scope, resourceRef, roleRef);
      const d = await this.addRule(tx, scope, resource, role, rule, '/body');
      return derivationView(scope, d);
    });
  }

  async removeImplicitGrant(scope: Scope, resourceRef: string, roleRef: string, rule: Rule) {
    const { resource, role } = await this.store.read((tx) => this.grantTarget(tx, scope, resourceRef, roleRef));
    const d: Derivation = { resource, role, on_resource: rule.on_resource, from_role: rule.role, relation: rule.linked_by_relation };
    if (!(await this.store.deleteDerivation(scope.envId, d))) {
      throw notFound('Role derivation', `${d.on_resource}#${d.from_role} -${d.relation}-> ${d.resource}#${d.role}`);
    }
  }

  /** The granted role: a resource role of the resource, else a tenant role of that key at instance scope. */
  private async grantTarget(tx: Tx, scope: Scope, resourceRef: string, roleRef: string) {
    const resource = await this.store.mustResource(tx, scope.envId, resourceRef);
    const rr = await this.store.getResourceRole(tx, scope.envId, resource.key, roleRef);
    if (rr) return { resource: resource.key, role: rr.key };
    const refs = await this.store.checkDerivation(tx, scope.envId, {
      resource: resource.key,
      role: roleRef,
      on_resource: '',
      from_role: '',
      relation: '',
    });
    if (!refs.roleExists) throw notFound(roleOf(resource.key), roleRef);
    return { resource: resource.key, role: roleRef };
  }

  private async replaceRules(tx: Tx, scope: Scope, resource: string, role: string, rules: Rule[]) {
    await this.store.deleteRoleDerivations(tx, scope.envId, resource, role);
    for (const [i, rule] of rules.entries()) await this.addRule(tx, scope, resource, role, rule, `/body/granted_to/users_with_role/${i}`);
  }

  private async addRule(tx: Tx, scope: Scope, resource: string, role: string, rule: Rule, path: string) {
    const d: Derivation = { resource, role, on_resource: rule.on_resource, from_role: rule.role, relation: rule.linked_by_relation };
    const refs = await this.store.checkDerivation(tx, scope.envId, d);
    if (!refs.onResourceExists) throw notFound('Resource', d.on_resource);
    if (!refs.relationExists) throw notFound(relationOf(resource), d.relation);
    if (refs.relationSubject !== d.on_resource) {
      throw invalidInput(
        `Relation ${JSON.stringify(d.relation)} links a ${JSON.stringify(refs.relationSubject)} to a ${JSON.stringify(resource)}, not a ${JSON.stringify(d.on_resource)}.`,
        [
          {
            path: `${path}/linked_by_relation`,
            message: `has subject resource ${JSON.stringify(refs.relationSubject)}, not ${JSON.stringify(d.on_resource)}`,
          },
        ],
      );
    }
    if (!refs.fromRoleExists) throw notFound(roleOf(d.on_resource), d.from_role);
    return this.store.createDerivation(tx, scope.envId, {
      ...d,
      no_direct_roles_on_object: rule.when?.no_direct_roles_on_object ?? false,
      id: randomUUID(),
      nowIso: now(),
    });
  }

  // ---- relations

  async createRelation(scope: Scope, resourceRef: string, input: RelationInput) {
    return this.store.write(async (tx) => {
      const resource = await this.store.mustResource(tx, scope.envId, resourceRef);
      await this.addRelation(tx, scope, resource.key, input, '/body/subject_resource');
      return relationView(scope, await this.store.mustRelation(tx, scope.envId, resource.key, input.key));
    });
  }

  private async addRelation(tx: Tx, scope: Scope, resource: string, input: RelationInput, path: string) {
    const created = await this.store.createRelation(tx, scope.envId, resource, {
      id: randomUUID(),
      key: input.key,
      name: input.name,
      description: input.description ?? null,
      subject_resource: input.subject_resource,
      nowIso: now(),
    });
    if (!created) {
      throw new AppError(404, 'NOT_FOUND', `Subject resource ${JSON.stringify(input.subject_resource)} not found: create it first.`, [
        { path, message: 'names no existing resource' },
      ]);
    }
  }

  async getRelation(scope: Scope, resourceRef: string, ref: string) {
    return this.store.read(async (tx) => {
      const resource = await this.store.mustResource(tx, scope.envId, resourceRef);
      const rel = await this.store.mustRelation(tx, scope.envId, resource.key, ref);
      return relationView(scope, rel);
    });
  }

  async listRelations(scope: Scope, resourceRef: string, page: Page) {
    const resource = await this.store.read((tx) => this.store.mustResource(tx, scope.envId, resourceRef));
    const { total, data } = await this.store.listRelations(scope.envId, resource.key, page);
    return envelopeOf(
      data.map((r) => relationView(scope, r)),
      total,
      page,
    );
  }

  async updateRelation(scope: Scope, resourceRef: string, ref: string, patch: { name?: string; description?: string | null }) {
    return this.store.write(async (tx) => {
      const resource = await this.store.mustResource(tx, scope.envId, resourceRef);
      const rel = await this.store.mustRelation(tx, scope.envId, resource.key, ref);
      await this.store.updateRelation(tx, scope.envId, resource.key, rel.key, {
        name: patch.name ?? null,
        description: patch.description,
        nowIso: now(),
      });
      return relationView(scope, await this.store.mustRelation(tx, scope.envId, resource.key, rel.key));
    });
  }

  async deleteRelation(scope: Scope, resourceRef: string, ref: string) {
    const rel = await this.store.read(async (tx) => {
      const resource = await this.store.mustResource(tx, scope.envId, resourceRef);
      return this.store.mustRelation(tx, scope.envId, resource.key, ref);
    });
    if (!(await this.store.deleteRelation(scope.envId, rel.resource, rel.key))) throw notFound('Relation', ref);
  }
}

/** Actions as the model stores them: the key list and a JSON map key -> {id, name, description}. */
function encodeActions(actions: Record<string, ActionBlock>, previous: Record<string, ActionBlock>) {
  // Null-prototype map and own-property lookups: action keys such as `__proto__` or `constructor` are plain keys here.
  const blocks: Record<string, ActionBlock> = Object.create(null);
  for (const [key, b] of Object.entries(actions)) {
    const before = Object.hasOwn(previous, key) ? previous[key] : undefined;
    blocks[key] = {
      id: before?.id ?? randomUUID(),
      name: b.name ?? before?.name ?? key,
      description: b.description ?? before?.description ?? null,
    };
  }
  return { actions: Object.keys(blocks), actions_json: JSON.stringify(blocks) };
}

/** Permit's `when` of a granted_to block applies to each of its rules (a rule's own `when` wins). */
function withWhen(block: { users_with_role?: Rule[]; when?: When }): Rule[] {
  return (block.users_with_role ?? []).map((r) => (r.when || !block.when ? r : { ...r, when: block.when }));
}

/** What a resource role's permission may name: an action of the resource, or one of its action groups. */
export const grantable = (r: ResourceNode): string[] => [...(r.actions ?? []), ...(r.action_groups ?? [])];

export function checkPermissions(actions: string[], permissions: string[], resource: string, path: string) {
  const details = permissions.flatMap((p, i) =>
    actions.includes(p)
      ? []
      : [
          {
            path: `${path}/${i}`,
            message: `${JSON.stringify(p)} is not an action (nor action group) of resource ${JSON.stringify(resource)}`,
          },
        ],
  );
  if (details.length)
    throw invalidInput(
      `Permissions must name actions of resource ${JSON.stringify(resource)}: ${details.map((d) => d.message).join('; ')}.`,
      details,
    );
}
