import type { Db, RowsOf, Tx } from '../../db/db';
import type { StatementRows } from '../../db/statements.generated';
import type { SchemaRows } from './model';

/** A schema record a policy would remove, with how many facts use it (policy/factsInUse). */
export type InUse = StatementRows['policy/factsInUse']['used'][number];

/**
 * The policy area's statements: its own reads (policy/*) and the schema area's writes, run here
 * inside the one transaction of an apply (each of those statements also records its change event).
 */
export class PolicyStore {
  readonly q;

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

  /** Runs one of the named statements with `params` (the policy service picks which). */
  async run<K extends keyof PolicyStore['q']>(tx: Tx, name: K, params: Record<string, unknown>) {
    // The rows of the statement named (its `// @row` type), not of any of them.
    return tx.rows<RowsOf<PolicyStore['q'][K]>>(this.q[name], params);
  }
}
