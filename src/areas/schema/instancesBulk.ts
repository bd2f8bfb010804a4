import type { Scope } from '../../auth/types';
import { invalidInput, notFound, tenantMismatch } from '../../errors';
import { attributesJson } from '../../util/attributes';
import { checkInstanceBatch, type InstanceInput } from './instancesService';
import { type InstancesStore, splitInstanceRef } from './instancesStore';

/** Permit's `/bulk/resource_instances`: PUT creates or replaces, DELETE removes; one transaction each. */
export class InstancesBulkService {
  constructor(private readonly store: InstancesStore) {}

  async replaceInstances(scope: Scope, ops: InstanceInput[]) {
    const seen = new Set<string>();
    ops.forEach((x, i) => {
      const id = `${x.resource}:${x.key}`;
      if (seen.has(id))
        throw invalidInput(`Resource instance ${JSON.stringify(id)} appears twice in the batch.`, [
          { path: `/body/operations/${i}`, message: 'repeats an instance' },
        ]);
      seen.add(id);
    });
    const items = ops.map((x, i) => ({
      key: x.key,
      tenant: x.tenant,
      resource: x.resource,
      attributes: attributesJson(x.attributes ?? {}, `/body/operations/${i}/attributes`)!,
    }));
    // The check and the write share the transaction, so the batch is written whole or not at all.
    const row = await this.store.replaceInstances(scope.envId, items, {
      found: checkInstanceBatch(ops),
      elsewhere: (e) => {
        throw tenantMismatch(`Resource instance ${e.resource}:${e.key} exists in tenant ${JSON.stringify(e.tenant)}.`);
      },
    });
    return { instances_created: row.created, instances_replaced: row.total - row.created };
  }

  async deleteInstances(scope: Scope, idents: string[]) {
    const refs = [...new Set(idents)].map(splitInstanceRef);
    const row = await this.store.deleteInstancesByRef(scope.envId, refs);
    if (row.missing.length) throw notFound('Resource instance', row.missing[0]);
    return { instances_deleted: row.deleted };
  }
}
