import { randomUUID } from 'node:crypto';
import type { Scope } from '../../auth/types';
import { concurrentChange, notFound, tenantMismatch } from '../../errors';
import { at } from '../../util/bulkItem';
import type { Page } from '../../http/paging';
import { attributesJson } from '../../util/attributes';
import { fromJson } from '../../util/json';
import type { SchemaStore } from './store';
import { BatchChanged, type InstanceNode, type InstancesStore, type ResolvedInstance, splitInstanceRef } from './instancesStore';
import { scoped } from '../../auth/types';
import type { Static } from '../../http/schema';
import type { instanceCreate } from './schemas';

/** A resource instance as its route schema admits it. */
export type InstanceInput = Static<typeof instanceCreate>;

export const instanceView = (scope: Scope, i: InstanceNode) => ({
  id: i.id,
  key: i.key,
  resource: i.resource,
  resource_id: i.resource_id ?? null,
  tenant: i.tenant,
  tenant_id: i.tenant_id ?? null,
  attributes: fromJson(i.attributes_json),
  ...scoped(scope),
  created_at: i.created_at ?? null,
  updated_at: i.updated_at ?? null,
});

/**
 * Throws, for the first item of a batch that names no resource or tenant, or an instance that
 * lives in another tenant, the error the bulk answers give (with the item's index).
 */
export const checkInstanceBatch = (inputs: { key: string; tenant: string; resource: string }[]) => (found: ResolvedInstance[]) =>
  found.forEach((f, i) =>
    at(true, i, () => {
      if (!f.resourceExists) throw notFound('Resource', inputs[i].resource);
      if (!f.tenantExists) throw notFound('Tenant', inputs[i].tenant);
      if (f.existingTenant !== null && f.existingTenant !== inputs[i].tenant) {
        throw tenantMismatch(
          `Resource instance ${inputs[i].resource}:${inputs[i].key} exists in tenant ${JSON.stringify(f.existingTenant)}.`,
        );
      }
    }),
  );

/** Resource instances: `{key, tenant, resource, attributes}`; tenant and resource must exist. */
export class InstancesService {
  constructor(
    private readonly store: InstancesStore,
    private readonly schema: SchemaStore,
  ) {}

  async createInstance(scope: Scope, input: InstanceInput) {
    const now = new Date().toISOString();
    const i = await this.store.createInstance(scope.envId, {
      id: randomUUID(),
      key: input.key,
      resource: input.resource,
      tenant: input.tenant,
      attributes: attributesJson(input.attributes ?? {})!,
      nowIso: now,
    });
    if (i) return instanceView(scope, i);
    const resource = await this.schema.read((tx) => this.schema.getResource(tx, scope.envId, input.resource));
    if (!resource) throw notFound('Resource', input.resource);
    throw notFound('Tenant', input.tenant);
  }

  /** All or nothing; instances that exist in the same tenant are left as they are. */
  async createInstancesBulk(scope: Scope, inputs: InstanceInput[]) {
    const items = inputs.map((x, i) => ({
      key: x.key,
      tenant: x.tenant,
      resource: x.resource,
      attributes: attributesJson(x.attributes ?? {}, `/body/operations/${i}/attributes`)!,
    }));
    let created: number;
    try {
      created = await this.store.createInstances(scope.envId, items, checkInstanceBatch(inputs));
    } catch (err) {
      throw err instanceof BatchChanged ? concurrentChange() : err;
    }
    return { instances_created: created };
  }

  async getInstance(scope: Scope, ref: string) {
    const i = await this.store.getInstance(scope.envId, splitInstanceRef(ref));
    if (!i) throw notFound('Resource instance', ref);
    return instanceView(scope, i);
  }

  async listInstances(scope: Scope, filter: { tenant?: string; resource?: string; search?: string }, page: Page) {
    const { data } = await this.store.listInstances(
      scope.envId,
      {
        tenant: filter.tenant ?? null,
        resource: filter.resource ?? null,
        search: filter.search ?? null,
      },
      page,
    );
    // A plain array, as Permit answers (docs/behaviour.md section 14).
    return data.map((i) => instanceView(scope, i));
  }

  /** `detailed=true`: Permit's ResourceInstanceDetailedRead, each with the tuples naming it as subject or object (one more query per page). */
  async listInstancesDetailed(scope: Scope, filter: { tenant?: string; resource?: string; search?: string }, page: Page) {
    const listed = await this.listInstances(scope, filter, page);
    const relationships = await this.store.relationshipsOf(
      scope.envId,
      listed.map((i) => i.id),
    );
    return listed.map((i) => ({ ...i, relationships: relationships.get(i.id) ?? [] }));
  }

  async updateInstance(scope: Scope, ref: string, patch: { attributes?: Record<string, unknown> }) {
    const current = await this.getInstance(scope, ref);
    const attributes = attributesJson(patch.attributes) ?? null;
    await this.store.updateInstance(scope.envId, current.resource, current.key, attributes, new Date().toISOString());
    return this.getInstance(scope, `${current.resource}:${current.key}`);
  }

  async deleteInstance(scope: Scope, ref: string) {
    const current = await this.getInstance(scope, ref);
    if (!(await this.store.deleteInstance(scope.envId, current.resource, current.key))) throw notFound('Resource instance', ref);
  }
}
