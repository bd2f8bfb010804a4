import type { Db, Tx } from '../../db/db';
import type { StatementRows } from '../../db/statements.generated';
import type { SchemaRows } from './model';

/** A schema record a policy would remove, with how many facts use it (policy/factsInUse). */
export type InUse = StatementRows['policy/factsInUse']['used'][number];

/**
 * The policy area's statements: its own reads (policy/*) and the schema area's writes, run here
 * inside the one transaction of an apply (each of those statements also records its change event).
 */
export class PolicyStore {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = this.db.statements({
      readSchema: 'policy/readSchema',
      factsInUse: 'policy/factsInUse',
      lockEnvironment: 'policy/lockEnvironment',
      createResource: 'schema/createResource',
      updateResource: 'schema/updateResource',
      deleteResource: 'schema/deleteResource',
      createResourceRole: 'schema/createResourceRole',
      updateResourceRole: 'schema/updateResourceRole',
      deleteResourceRole: 'schema/deleteResourceRole',
      createRelation: 'schema/createRelation',
      deleteRelation: 'schema/deleteRelation',
      createDerivation: 'schema/createDerivation',
      deleteDerivation: 'schema/deleteDerivation',
      createRole: 'schema/createRole',
      createActionGroup: 'schema/createActionGroup',
      updateActionGroup: 'schema/updateActionGroup',
      deleteActionGroup: 'schema/deleteActionGroup',
      updateRole: 'schema/updateRole',
      deleteRole: 'schema/deleteRole',
      clearRoleParents: 'schema/clearRoleParents',
      addRoleParent: 'schema/addRoleParent',
      readConditions: 'policy/readConditions',
      writeUserAttributes: 'policy/writeUserAttributes',
      createConditionSet: 'conditions/createConditionSet',
      updateConditionSet: 'conditions/updateConditionSet',
      deleteConditionSet: 'conditions/deleteConditionSet',
      createSetRule: 'conditions/createSetRule',
      deleteSetRule: 'conditions/deleteSetRule',
      createProxyConfig: 'urlMapping/createProxyConfig',
      updateProxyConfig: 'urlMapping/updateProxyConfig',
      deleteProxyConfig: 'urlMapping/deleteProxyConfig',
    });
  }

  /** A plan: one read transaction under the admin deadline (ADMIN_TIMEOUT_MS), not a decision's. */
  read<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.admin().read(fn);
  }
  /** An apply (and its prune): one write transaction under the admin deadline (ADMIN_TIMEOUT_MS). */
  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.admin().write(fn);
  }

  async readSchema(tx: Tx, env: string): Promise<SchemaRows> {
    // One row always (every part collects).
    const [row] = await tx.rows(this.q.readSchema, { env });
    return row;
  }

  async readConditions(tx: Tx, env: string) {
    return (await tx.one(this.q.readConditions, { env }))!;
  }

  async inUse(
    tx: Tx,
    env: string,
    removed: {
      resources: string[];
      resourceRoles: { resource: string; key: string }[];
      relations: { resource: string; key: string }[];
      roles: string[];
      configs: string[];
    },
  ): Promise<InUse[]> {
    return (await tx.one(this.q.factsInUse, { env, ...removed }))?.used ?? [];
  }

  // The writes of an apply, one method a statement: the parameters each statement takes, the
  // rows its `// @row` header declares.

  /** Holds the environment's policy lock until the transaction ends (one apply at a time). */
  lockEnvironment(tx: Tx, p: { env: string }) {
    return tx.rows(this.q.lockEnvironment, p);
  }

  createResource(tx: Tx, p: Env & Stamped & Described & Actions & { id: string; key: string; attributes_json: string }) {
    return tx.rows(this.q.createResource, p);
  }
  updateResource(tx: Tx, p: Env & Stamped & Described & Actions & { key: string; setDescription: boolean; attributes_json: string }) {
    return tx.rows(this.q.updateResource, p);
  }
  deleteResource(tx: Tx, p: Env & { key: string }) {
    return tx.rows(this.q.deleteResource, p);
  }

  createActionGroup(
    tx: Tx,
    p: Env & Stamped & Described & { id: string; resource: string; key: string; actions: string[]; attributes_json: string },
  ) {
    return tx.rows(this.q.createActionGroup, p);
  }
  updateActionGroup(
    tx: Tx,
    p: Env & Stamped & Described & { resource: string; key: string; actions: string[]; attributes_json: null; setDescription: boolean },
  ) {
    return tx.rows(this.q.updateActionGroup, p);
  }
  deleteActionGroup(tx: Tx, p: Env & { resource: string; key: string }) {
    return tx.rows(this.q.deleteActionGroup, p);
  }

  createResourceRole(tx: Tx, p: Env & Stamped & Described & { id: string; resource: string; key: string; permissions: string[] }) {
    return tx.rows(this.q.createResourceRole, p);
  }
  updateResourceRole(
    tx: Tx,
    p: Env & Stamped & Described & { resource: string; key: string; permissions: string[]; setDescription: boolean },
  ) {
    return tx.rows(this.q.updateResourceRole, p);
  }
  deleteResourceRole(tx: Tx, p: Env & { resource: string; key: string }) {
    return tx.rows(this.q.deleteResourceRole, p);
  }

  createRelation(tx: Tx, p: Env & Stamped & Described & { id: string; resource: string; key: string; subject_resource: string }) {
    return tx.rows(this.q.createRelation, p);
  }
  deleteRelation(tx: Tx, p: Env & { resource: string; key: string }) {
    return tx.rows(this.q.deleteRelation, p);
  }

  createDerivation(tx: Tx, p: DerivationParams & Stamped & { id: string; no_direct_roles_on_object: boolean }) {
    return tx.rows(this.q.createDerivation, p);
  }
  deleteDerivation(tx: Tx, p: DerivationParams) {
    return tx.rows(this.q.deleteDerivation, p);
  }

  createRole(tx: Tx, p: Env & Stamped & Described & { id: string; key: string; permissions: string[] }) {
    return tx.rows(this.q.createRole, p);
  }
  updateRole(tx: Tx, p: Env & Stamped & Described & { key: string; permissions: string[]; setDescription: boolean }) {
    return tx.rows(this.q.updateRole, p);
  }
  deleteRole(tx: Tx, p: Env & { key: string }) {
    return tx.rows(this.q.deleteRole, p);
  }

  /** `resource` null: a tenant role's parents; else the parents of a role of that resource. */
  clearRoleParents(tx: Tx, p: Env & { resource: string | null; role: string }) {
    return tx.rows(this.q.clearRoleParents, p);
  }
  /** Its row says `cycle: true` (nothing written) when the edge would close a cycle. */
  addRoleParent(tx: Tx, p: Env & Stamped & { resource: string | null; role: string; parent: string }) {
    return tx.rows(this.q.addRoleParent, p);
  }

  writeUserAttributes(tx: Tx, p: Env & Stamped & { id: string; attributes_json: string }) {
    return tx.rows(this.q.writeUserAttributes, p);
  }
  createConditionSet(
    tx: Tx,
    p: Env &
      Stamped &
      Described & { id: string; key: string; type: string; resource: string | null; parent: string | null; conditions_json: string },
  ) {
    return tx.rows(this.q.createConditionSet, p);
  }
  updateConditionSet(
    tx: Tx,
    p: Env &
      Stamped &
      Described & { key: string; setDescription: boolean; parent: string | null; setParent: boolean; conditions_json: string },
  ) {
    return tx.rows(this.q.updateConditionSet, p);
  }
  deleteConditionSet(tx: Tx, p: Env & { key: string }) {
    return tx.rows(this.q.deleteConditionSet, p);
  }
  createSetRule(
    tx: Tx,
    p: Env &
      Stamped & {
        id: string;
        key: string;
        user_set: string;
        permission: string;
        resource_set: string;
        is_role: boolean;
        is_resource: boolean;
      },
  ) {
    return tx.rows(this.q.createSetRule, p);
  }
  deleteSetRule(tx: Tx, p: Env & { key: string }) {
    return tx.rows(this.q.deleteSetRule, p);
  }

  createProxyConfig(tx: Tx, p: Env & Stamped & { id: string; key: string; name: string; authMechanism: string; rulesJson: string }) {
    return tx.rows(this.q.createProxyConfig, p);
  }
  updateProxyConfig(tx: Tx, p: Env & Stamped & { key: string; name: string; authMechanism: string; rulesJson: string }) {
    return tx.rows(this.q.updateProxyConfig, p);
  }
  deleteProxyConfig(tx: Tx, p: Env & { key: string }) {
    return tx.rows(this.q.deleteProxyConfig, p);
  }
}

type Env = { env: string };
type Stamped = { nowIso: string };
type Described = { name: string; description: string | null };
type Actions = { actions: string[]; actions_json: string };
/** The fields naming one derivation: the role `role` of `resource` granted from `from_role` on `on_resource` by `relation`. */
type DerivationParams = Env & { resource: string; role: string; on_resource: string; from_role: string; relation: string };
