import type { Scope } from '../../auth/types';
import { invalidInput } from '../../errors';
import type { Static } from '../../http/schema';
import type { RoleAssignmentsService } from '../assignments/service';
import type { Reading, DecisionEngine } from '../decisions/engine';
import type { FactsService } from '../facts/service';
import type { GroupsService } from '../groups/service';
import type { InstancesService } from '../schema/instancesService';
import type { intendedWrite, previewBody } from './schemas';
import type { ImpactStore } from './store';

export type IntendedWrite = Static<typeof intendedWrite>;
type PreviewBody = Static<typeof previewBody>;

/** The services whose writes a preview rehearses: the ones the public routes call. */
export interface ImpactWriters {
  facts: FactsService;
  assignments: RoleAssignmentsService;
  groups: GroupsService;
  instances: InstancesService;
}

/** One access lost: `user` may do `action` on `object` now and may not after. `object` "type:*": every instance of the tenant (a tenant role). */
export interface LostAccess {
  user: string;
  action: string;
  object: string;
  tenant: string;
}

/** The fields each intended write needs (the body of its public route, docs/console.md#impact-preview). */
const NEEDS: Record<IntendedWrite['op'], (keyof IntendedWrite)[]> = {
  unassign_role: ['user', 'role'],
  assign_role: ['user', 'role'],
  remove_member: ['group', 'user'],
  add_member: ['group', 'user', 'tenant'],
  remove_parent: ['group', 'parent'],
  revoke_group_role: ['group', 'role', 'resource_instance', 'tenant'],
  delete_group: ['group'],
  delete_user: ['user'],
  delete_instance: ['resource_instance'],
  set_user_attributes: ['user', 'attributes'],
  set_instance_attributes: ['resource_instance', 'attributes'],
};

export const DEFAULT_DEADLINE_MS = 5000;
const DEFAULT_LIMIT = 1000;
/** The rehearsal's transaction outlives the deadline by this much (the server ends it then at the latest). */
const TRANSACTION_GRACE_MS = 5000;

const splitInstance = (ref: string) => {
  const i = ref.indexOf(':');
  return { type: ref.slice(0, i), key: ref.slice(i + 1) };
};
const tripleKey = (t: LostAccess) => JSON.stringify([t.user, t.object, t.action, t.tenant]);

/**
 * The impact preview (docs/console.md#impact-preview): what intended writes would take away, every
 * (user, action, object) allowed now and denied after, computed by the decision engine (its
 * `enumerate`: the walk and the set rules, every path kind) before the writes and in a rehearsal
 * of them (a transaction rolled back: no revision, no change event, nothing kept). The writes run
 * through the same services as their public routes, so a write that would fail fails here with
 * its error. Candidates: the users a write can touch (the user named; everyone holding a role on
 * the group or on what reaches it), each compared over all their permissions; and the objects an
 * instance write can touch (the instance and what is reached from it), each compared over the users
 * allowed each action. Bounded: past the deadline the answer is cut (`cut: true`) with what was
 * found so far.
 */
export class ImpactService {
  constructor(
    private readonly store: ImpactStore,
    private readonly engine: DecisionEngine,
    private readonly writers: ImpactWriters,
  ) {}

  async preview(scope: Scope, body: PreviewBody) {
    const deadline = Date.now() + (body.deadline_ms ?? DEFAULT_DEADLINE_MS);
    const limit = body.limit ?? DEFAULT_LIMIT;
    body.writes.forEach((w, i) => {
      const missing = NEEDS[w.op].filter((f) => w[f] === undefined);
      if (missing.length) throw invalidInput(`/body/writes/${i}: "${w.op}" needs ${missing.map((f) => `"${f}"`).join(', ')}.`);
    });
    const env = scope.envId;
    // Candidates, on the state before the writes.
    const users = new Set<string>();
    const objects = new Map<string, { type: string; key: string; tenant: string; actions: string[] }>();
    for (const w of body.writes) {
      if (w.user !== undefined) users.add(w.user);
      if (w.op === 'remove_parent' || w.op === 'revoke_group_role' || w.op === 'delete_group')
        for (const u of await this.store.usersReaching(env, w.group!)) users.add(u);
      if (w.op === 'delete_instance' || w.op === 'set_instance_attributes') {
        const { type, key } = splitInstance(w.resource_instance!);
        for (const o of await this.store.objectsFrom(env, type, key)) objects.set(`${o.type}:${o.key}`, o);
      }
    }
    // Before: the committed state, at a fresh reading. After: the rehearsal, never from a cache
    // (no revision: every read goes to the rehearsal's transaction).
    const before = await this.engine.reading(scope, 'fully_consistent');
    const after: Reading = { env, cached: false };
    const rehearsal = await this.store.rehearse(Math.max(0, deadline - Date.now()) + TRANSACTION_GRACE_MS);
    const lost = new Map<string, LostAccess>();
    const add = (t: LostAccess) => lost.set(tripleKey(t), t);
    let cut = false;
    let usersChecked = 0;
    let objectsChecked = 0;
    try {
      await rehearsal.run(() => this.apply(scope, body.writes));
      for (const user of [...users].sort()) {
        if (Date.now() >= deadline) {
          cut = true;
          break;
        }
        const q = { kind: 'permissions', user, userAttributes: null, tenants: null, resources: null, context: {} } as const;
        const was = await this.engine.enumerate(before, q);
        const now = await rehearsal.run(() => this.engine.enumerate(after, q));
        const kept = new Set<string>();
        for (const i of now.instances) for (const p of i.permissions) kept.add(`${i.type}:${i.key}#${p}`);
        for (const t of now.tenants) for (const p of t.permissions) kept.add(`tenant ${t.tenant}#${p}`);
        for (const i of was.instances)
          for (const p of i.permissions)
            if (!kept.has(`${i.type}:${i.key}#${p}`)) add({ user, action: actionOf(p), object: `${i.type}:${i.key}`, tenant: i.tenant });
        for (const t of was.tenants)
          for (const p of t.permissions)
            if (!kept.has(`tenant ${t.tenant}#${p}`)) add({ user, action: actionOf(p), object: `${typeOf(p)}:*`, tenant: t.tenant });
        usersChecked++;
      }
      for (const o of cut ? [] : [...objects.values()]) {
        if (Date.now() >= deadline) {
          cut = true;
          break;
        }
        for (const action of o.actions) {
          const q = { kind: 'users', action, type: o.type, key: o.key, tenant: null, resourceAttributes: null, context: {} } as const;
          const was = await this.engine.enumerate(before, q);
          const now = await rehearsal.run(() => this.engine.enumerate(after, q));
          for (const user of Object.keys(was.users))
            if (!(user in now.users)) add({ user, action, object: `${o.type}:${o.key}`, tenant: o.tenant });
        }
        objectsChecked++;
      }
    } finally {
      await rehearsal.close();
    }
    const all = [...lost.values()].sort((a, b) => (tripleKey(a) < tripleKey(b) ? -1 : 1));
    return { lost: all.slice(0, limit), count: all.length, cut, users_checked: usersChecked, objects_checked: objectsChecked };
  }

  /** The intended writes, in order, through the services of their public routes. */
  private async apply(scope: Scope, writes: IntendedWrite[]): Promise<void> {
    const { facts, assignments, groups, instances } = this.writers;
    for (const w of writes) {
      const assignment = {
        user: w.user!,
        role: w.role!,
        ...(w.tenant !== undefined ? { tenant: w.tenant } : {}),
        ...(w.resource_instance !== undefined ? { resource_instance: w.resource_instance } : {}),
      };
      switch (w.op) {
        case 'unassign_role':
          await assignments.unassign(scope, assignment);
          break;
        case 'assign_role':
          await assignments.assign(scope, { ...assignment, ...(w.expires_at !== undefined ? { expires_at: w.expires_at } : {}) });
          break;
        case 'remove_member':
          await groups.removeUser(scope, w.group!, w.user!, w.tenant !== undefined ? { tenant: w.tenant } : {});
          break;
        case 'add_member':
          await groups.addUser(scope, w.group!, w.user!, {
            tenant: w.tenant!,
            ...(w.expires_at !== undefined ? { expires_at: w.expires_at } : {}),
          });
          break;
        case 'remove_parent':
          await groups.unassignGroup(scope, w.group!, { group_instance_key: w.parent! });
          break;
        case 'revoke_group_role': {
          const { type, key } = splitInstance(w.resource_instance!);
          await groups.removeRole(scope, w.group!, { resource: type, resource_instance: key, role: w.role!, tenant: w.tenant! });
          break;
        }
        case 'delete_group':
          await groups.deleteGroup(scope, w.group!);
          break;
        case 'delete_user':
          await facts.deleteUser(scope, w.user!);
          break;
        case 'delete_instance':
          await instances.deleteInstance(scope, w.resource_instance!);
          break;
        case 'set_user_attributes':
          await facts.updateUser(scope, w.user!, { attributes: w.attributes! });
          break;
        case 'set_instance_attributes':
          await instances.updateInstance(scope, w.resource_instance!, { attributes: w.attributes! });
          break;
      }
    }
  }
}

/** "repo:push" -> "push"; "repo" the type. */
const actionOf = (permission: string) => permission.slice(permission.indexOf(':') + 1);
const typeOf = (permission: string) => permission.slice(0, permission.indexOf(':'));
