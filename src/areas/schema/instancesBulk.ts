import type { Scope } from '../../auth/types';
import type { Db } from '../../db/db';
import { invalidInput, notFound, tenantMismatch } from '../../errors';
import type { RouteDef } from '../../http/routeTable';
import { arr, int, MAX_BULK_ITEMS, obj, str } from '../../http/schema';
import { at } from '../../util/bulkItem';
import { attributesJson } from '../../util/attributes';
import type { InstanceInput } from './instancesService';
import { splitInstanceRef } from './instancesStore';
import * as s from './schemas';

/** Permit's `/bulk/resource_instances`: PUT creates or replaces, DELETE removes; one transaction each. */
export class InstancesBulkService {
  private readonly q = this.db.statements({
    resolveInstances: 'schema/resolveInstances',
    replaceInstances: 'schema/replaceInstances',
    deleteInstancesByRef: 'schema/deleteInstancesByRef',
  });

  constructor(private readonly db: Db) {}

  async replaceInstances(scope: Scope, ops: InstanceInput[]) {
    const seen = new Set<string>();
    ops.forEach((x, i) => {
      const id = `${x.resource}:${x.key}`;
      if (seen.has(id)) throw invalidInput(`Resource instance ${JSON.stringify(id)} appears twice in the batch.`, [{ path: `/body/operations/${i}`, message: 'repeats an instance' }]);
      seen.add(id);
    });
    const items = ops.map((x, i) => ({ key: x.key, tenant: x.tenant, resource: x.resource, attributes: attributesJson(x.attributes ?? {}, `/body/operations/${i}/attributes`)! }));
    const env = scope.envId;
    // The check and the write share the transaction, so the batch is written whole or not at all.
    return this.db.write(async (tx) => {
      const found = await tx.rows(this.q.resolveInstances, { env, items });
      found.forEach((f, i) => at(true, i, () => {
        if (!f.resourceExists) throw notFound('Resource', ops[i].resource);
        if (!f.tenantExists) throw notFound('Tenant', ops[i].tenant);
        if (f.existingTenant !== null && f.existingTenant !== ops[i].tenant) {
          throw tenantMismatch(`Resource instance ${ops[i].resource}:${ops[i].key} exists in tenant ${JSON.stringify(f.existingTenant)}.`);
        }
      }));
      const [row] = await tx.rows(this.q.replaceInstances, { env, items, nowIso: new Date().toISOString() });
      const [elsewhere] = row.elsewhere as { resource: string; key: string; tenant: string }[];
      if (elsewhere) throw tenantMismatch(`Resource instance ${elsewhere.resource}:${elsewhere.key} exists in tenant ${JSON.stringify(elsewhere.tenant)}.`);
      return { instances_created: row.created as number, instances_replaced: (row.total as number) - (row.created as number) };
    });
  }

  async deleteInstances(scope: Scope, idents: string[]) {
    const refs = [...new Set(idents)].map(splitInstanceRef);
    const [row] = await this.db.writeRows(this.q.deleteInstancesByRef, { env: scope.envId, refs });
    const missing = row.missing as string[];
    if (missing.length) throw notFound('Resource instance', missing[0]);
    return { instances_deleted: row.deleted as number };
  }
}

export function instancesBulkRoutes(svc: InstancesBulkService): RouteDef[] {
  const tag = 'Bulk';
  const path = '/v2/facts/:proj_id/:env_id/bulk/resource_instances';
  const answer = obj({ instances_created: int(), instances_replaced: int(), instances_deleted: int() });
  return [
    { method: 'PUT', path, auth: 'env', tag, summary: 'Create or replace resource instances in bulk (all or nothing)',
      schemas: { params: s.params, body: obj({ operations: arr(s.instanceCreate, { minItems: 1, maxItems: MAX_BULK_ITEMS }) }, ['operations']), response: answer },
      handler: (r) => svc.replaceInstances(r.scope, r.body.operations) },
    { method: 'DELETE', path, auth: 'env', tag, summary: 'Delete resource instances ("type:key" or id) in bulk (an unknown one: 404, none deleted)',
      schemas: { params: s.params, body: obj({ idents: arr(str({ minLength: 1, maxLength: 400 }), { minItems: 1, maxItems: MAX_BULK_ITEMS }) }, ['idents']), response: answer },
      handler: (r) => svc.deleteInstances(r.scope, r.body.idents) },
  ];
}
