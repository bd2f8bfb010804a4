import { type Page, type PageParams, path } from '../http.js';
import type {
  Attributes,
  ResourceInstance,
  ResourceInstanceCreate,
  RoleAssignment,
  RoleAssignmentCreate,
  RoleAssignmentRemove,
  Tenant,
  TenantCreate,
  TenantUpdate,
  User,
  UserCreate,
  UserUpdate,
} from '../types.js';
import { FactsPart } from './base.js';
import type { SearchParams } from './schema.js';

/** Tenants and their users: `/v2/facts/{project}/{env}/tenants`. */
export class TenantsApi extends FactsPart {
  async create(data: TenantCreate): Promise<Tenant> {
    return this.http.request('POST', await this.at('/tenants'), { body: data });
  }
  /** A plain array, as Permit answers (docs/behaviour.md section 14). */
  async list(params: SearchParams = {}): Promise<Tenant[]> {
    return this.http.request('GET', await this.at('/tenants'), { query: { ...params } });
  }
  async get(tenant: string): Promise<Tenant> {
    return this.http.request('GET', await this.at(path`/tenants/${tenant}`));
  }
  async update(tenant: string, data: TenantUpdate): Promise<Tenant> {
    return this.http.request('PATCH', await this.at(path`/tenants/${tenant}`), { body: data });
  }
  /** Deletes the tenant and what lives in it. */
  async delete(tenant: string): Promise<void> {
    return this.http.request('DELETE', await this.at(path`/tenants/${tenant}`));
  }
  async listTenantUsers(tenant: string, params: PageParams = {}): Promise<Page<User>> {
    return this.http.request('GET', await this.at(path`/tenants/${tenant}/users`), { query: { ...params } });
  }
  /** Adds a user to the tenant, creating the user when missing. */
  async addTenantUser(tenant: string, user: UserCreate): Promise<User> {
    return this.http.request('POST', await this.at(path`/tenants/${tenant}/users`), { body: user });
  }
  /** Removes the user from the tenant, with their roles there. */
  async deleteTenantUser(tenant: string, user: string): Promise<void> {
    return this.http.request('DELETE', await this.at(path`/tenants/${tenant}/users/${user}`));
  }
}

export interface UserListParams extends SearchParams {
  tenant?: string;
}

/** Users: `/v2/facts/{project}/{env}/users`. */
export class UsersApi extends FactsPart {
  async create(data: UserCreate): Promise<User> {
    return this.http.request('POST', await this.at('/users'), { body: data });
  }
  async list(params: UserListParams = {}): Promise<Page<User>> {
    return this.http.request('GET', await this.at('/users'), { query: { ...params } });
  }
  async get(user: string): Promise<User> {
    return this.http.request('GET', await this.at(path`/users/${user}`));
  }
  async update(user: string, data: UserUpdate): Promise<User> {
    return this.http.request('PATCH', await this.at(path`/users/${user}`), { body: data });
  }
  /** Deletes the user and their assignments. */
  async delete(user: string): Promise<void> {
    return this.http.request('DELETE', await this.at(path`/users/${user}`));
  }
  /** Same as `roleAssignments.assign`. */
  async assignRole(assignment: RoleAssignmentCreate): Promise<RoleAssignment> {
    return this.http.request('POST', await this.at('/role_assignments'), { body: assignment });
  }
  /** Same as `roleAssignments.unassign`. */
  async unassignRole(assignment: RoleAssignmentRemove): Promise<void> {
    return this.http.request('DELETE', await this.at('/role_assignments'), { body: assignment });
  }
}

export interface InstanceListParams extends SearchParams {
  tenant?: string;
  resource?: string;
}

/** Resource instances: `/v2/facts/{project}/{env}/resource_instances` (also served under /v2/schema). */
export class ResourceInstancesApi extends FactsPart {
  async create(data: ResourceInstanceCreate): Promise<ResourceInstance> {
    return this.http.request('POST', await this.at('/resource_instances'), { body: data });
  }
  /** A plain array, as Permit answers. */
  async list(params: InstanceListParams = {}): Promise<ResourceInstance[]> {
    return this.http.request('GET', await this.at('/resource_instances'), { query: { ...params } });
  }
  /** By `"<resource>:<key>"` or id. */
  async get(instance: string): Promise<ResourceInstance> {
    return this.http.request('GET', await this.at(path`/resource_instances/${instance}`));
  }
  async update(instance: string, data: { attributes?: Attributes }): Promise<ResourceInstance> {
    return this.http.request('PATCH', await this.at(path`/resource_instances/${instance}`), { body: data });
  }
  /** Deletes the instance and what hangs on it. */
  async delete(instance: string): Promise<void> {
    return this.http.request('DELETE', await this.at(path`/resource_instances/${instance}`));
  }
}
