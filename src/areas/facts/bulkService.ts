import { now } from '../../util/time';
import type { Scope } from '../../auth/types';
import { invalidInput, notFound } from '../../errors';
import type { FactsBulkStore } from './bulkStore';
import type { TenantInput, UserInput } from './service';
import { toJson } from '../../util/json';

/** A key given twice in one batch is refused before anything is written (all or nothing). */
function noRepeats(keys: string[], what: string) {
  const seen = new Set<string>();
  const details = keys.flatMap((k, i) =>
    seen.has(k) ? [{ path: `/body/${what}/${i}`, message: `repeats ${JSON.stringify(k)}` }] : (seen.add(k), []),
  );
  if (details.length) throw invalidInput(`Each key may appear once per batch: ${details.map((d) => d.message).join('; ')}.`, details);
}

/**
 * Permit's `/v2/facts/{p}/{e}/bulk/*` for users and tenants (docs/behaviour.md section 10): bodies
 * `{operations: [...]}` / `{idents: [...]}`, each batch one transaction, all or nothing.
 */
export class FactsBulkService {
  constructor(private readonly store: FactsBulkStore) {}

  /** Creates the users that are missing; existing ones are left as they are. */
  async createUsers(scope: Scope, ops: UserInput[]) {
    noRepeats(
      ops.map((u) => u.key),
      'operations',
    );
    const items = ops.map((u, i) => ({ ...u, attributes: toJson(u.attributes ?? {}, `/body/operations/${i}/attributes`)! }));
    return { users_created: await this.store.createUsers(scope.envId, items, now()) };
  }

  /** Creates or replaces every user of the batch (fields not given become null / `{}`). */
  async replaceUsers(scope: Scope, ops: UserInput[]) {
    noRepeats(
      ops.map((u) => u.key),
      'operations',
    );
    const items = ops.map((u, i) => ({ ...u, attributes: toJson(u.attributes ?? {}, `/body/operations/${i}/attributes`)! }));
    const { created, total } = await this.store.replaceUsers(scope.envId, items, now());
    return { users_created: created, users_replaced: total - created };
  }

  async deleteUsers(scope: Scope, idents: string[]) {
    const { missing, deleted } = await this.store.deleteUsers(scope.envId, [...new Set(idents)]);
    if (missing.length) throw notFound('User', missing[0]);
    return { users_deleted: deleted };
  }

  /** Creates every tenant of the batch; an existing key answers 409 and creates none. */
  async createTenants(scope: Scope, ops: TenantInput[]) {
    noRepeats(
      ops.map((t) => t.key),
      'operations',
    );
    const items = ops.map((t, i) => ({
      key: t.key,
      name: t.name,
      description: t.description ?? null,
      attributes: toJson(t.attributes ?? {}, `/body/operations/${i}/attributes`)!,
    }));
    const created = await this.store.createTenants(scope.envId, items, now());
    return { tenants_created: created };
  }

  async deleteTenants(scope: Scope, idents: string[]) {
    const { missing, deleted } = await this.store.deleteTenants(scope.envId, [...new Set(idents)]);
    if (missing.length) throw notFound('Tenant', missing[0]);
    return { tenants_deleted: deleted };
  }
}
