import type { Scope } from '../../auth/types';
import type { Tx } from '../../db/db';
import { invalidInput, notFound } from '../../errors';
import type { HierarchyStore } from './hierarchyStore';
import type { SchemaStore } from './store';
import { roleOf } from './labels';

/** A role's place in the hierarchy: tenant role (`resource` null) or a role of `resource`. */
export interface RoleAt {
  resource: string | null;
  key: string;
}

const what = (resource: string | null) => (resource === null ? 'Role' : roleOf(resource));

/**
 * Role hierarchy (docs/behaviour.md section 10): a role extends other roles of its kind and has their
 * permissions, transitively. Edges that would make a role its own ancestor answer 422.
 */
export class HierarchyService {
  constructor(
    private readonly store: HierarchyStore,
    private readonly schema: SchemaStore,
  ) {}

  /** The key of the role `ref` (key or id) names; 404 when none. */
  async resolve(tx: Tx, scope: Scope, resource: string | null, ref: string): Promise<string> {
    if (resource === null) {
      const role = await this.schema.getRole(scope.envId, ref, tx);
      if (!role) throw notFound('Role', ref);
      return role.key;
    }
    const rr = await this.schema.getResourceRole(tx, scope.envId, resource, ref);
    if (!rr) throw notFound(what(resource), ref);
    return rr.key;
  }

  async addParent(tx: Tx, scope: Scope, at: RoleAt, parentRef: string, path = '/params/parent') {
    const parent = await this.resolve(tx, scope, at.resource, parentRef);
    if (!(await this.store.addParent(tx, scope.envId, at.resource, at.key, parent))) {
      throw invalidInput(
        `${what(at.resource)} ${JSON.stringify(at.key)} cannot extend ${JSON.stringify(parent)}: ${JSON.stringify(parent)} already extends it (directly or through other roles), which would make a cycle.`,
        [{ path, message: 'would make a role hierarchy cycle' }],
      );
    }
  }

  async removeParent(tx: Tx, scope: Scope, at: RoleAt, parentRef: string) {
    const parent = await this.resolve(tx, scope, at.resource, parentRef);
    if (!(await this.store.removeParent(tx, scope.envId, at.resource, at.key, parent))) {
      throw notFound(`${what(at.resource)} ${JSON.stringify(at.key)} does not extend role`, parent);
    }
  }

  /** `extends` given on a create or update: the role extends exactly these roles. */
  async setParents(tx: Tx, scope: Scope, at: RoleAt, parents: string[]) {
    await this.store.clearParents(tx, scope.envId, at.resource, at.key);
    for (const [i, p] of [...new Set(parents)].entries()) await this.addParent(tx, scope, at, p, `/body/extends/${i}`);
  }

  /** Views of roles of one kind, each with `extends` (the keys of the roles it directly extends). */
  async withExtends<V extends { key: string }>(
    scope: Scope,
    resource: string | null,
    views: V[],
    tx?: Tx,
  ): Promise<(V & { extends: string[] })[]> {
    if (!views.length) return [];
    const parents = await this.store.parentsOf(
      scope.envId,
      resource,
      views.map((v) => v.key),
      tx,
    );
    return views.map((v) => ({ ...v, extends: parents.get(v.key) ?? [] }));
  }

  /** Resource views (a page) whose roles carry `extends`, in one query. */
  async resourcesWithExtends<V extends { key: string; roles: Record<string, { key: string }> }>(scope: Scope, views: V[]) {
    const parents = views.length
      ? await this.store.parentsOfResources(
          scope.envId,
          views.map((v) => v.key),
        )
      : new Map<string, string[]>();
    return views.map((v) => ({
      ...v,
      roles: Object.fromEntries(
        Object.entries(v.roles).map(([k, r]) => [k, { ...r, extends: parents.get(`${v.key}\u0000${r.key}`) ?? [] }]),
      ),
    }));
  }

  /** The tenant roles `key` extends (ancestors) or that extend it (descendants), transitively. */
  async relatives(tx: Tx, scope: Scope, key: string, which: 'ancestors' | 'descendants') {
    return this.store.relatives(tx, scope.envId, key, which);
  }

  /** As `relatives`, for the roles of one resource (whole records, one statement). */
  async resourceRelatives(tx: Tx, scope: Scope, resource: string, key: string, which: 'ancestors' | 'descendants') {
    return this.store.resourceRelatives(tx, scope.envId, resource, key, which);
  }
}
