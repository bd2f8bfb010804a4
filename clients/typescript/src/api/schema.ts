import { type Page, type PageParams, path } from '../http.js';
import type {
  DerivationRule,
  Relation,
  RelationCreate,
  ResourceAction,
  RelationUpdate,
  Resource,
  ResourceCreate,
  ResourceReplace,
  ResourceRole,
  ResourceRoleCreate,
  ResourceRoleUpdate,
  ResourceUpdate,
  Role,
  RoleCreate,
  RoleDerivation,
  RoleUpdate,
} from '../types.js';
import { SchemaPart } from './base.js';

export interface SearchParams extends PageParams {
  search?: string;
}

/** Resource types: `/v2/schema/{project}/{env}/resources`. */
export class ResourcesApi extends SchemaPart {
  async create(data: ResourceCreate): Promise<Resource> {
    return this.http.request('POST', await this.at('/resources'), { body: data });
  }
  /** A plain array, as Permit answers (docs/behaviour.md section 14). */
  async list(params: SearchParams = {}): Promise<Resource[]> {
    return this.http.request('GET', await this.at('/resources'), { query: { ...params } });
  }
  async get(resource: string): Promise<Resource> {
    return this.http.request('GET', await this.at(path`/resources/${resource}`));
  }
  /** Given actions replace the action set. */
  async update(resource: string, data: ResourceUpdate): Promise<Resource> {
    return this.http.request('PATCH', await this.at(path`/resources/${resource}`), { body: data });
  }
  /** Replaces the resource, creating it when missing. */
  async replace(resource: string, data: ResourceReplace): Promise<Resource> {
    return this.http.request('PUT', await this.at(path`/resources/${resource}`), { body: data });
  }
  /** Deletes the resource with its roles, relations, derivations and instances. */
  async delete(resource: string): Promise<void> {
    return this.http.request('DELETE', await this.at(path`/resources/${resource}`));
  }
  async listActions(resource: string, params: PageParams = {}): Promise<ResourceAction[]> {
    return this.http.request('GET', await this.at(path`/resources/${resource}/actions`), { query: { ...params } });
  }
}

/** Tenant-level roles: `/v2/schema/{project}/{env}/roles` (permissions `"<resource>:<action>"`). */
export class RolesApi extends SchemaPart {
  async create(data: RoleCreate): Promise<Role> {
    return this.http.request('POST', await this.at('/roles'), { body: data });
  }
  /** A plain array, as Permit answers. */
  async list(params: SearchParams = {}): Promise<Role[]> {
    return this.http.request('GET', await this.at('/roles'), { query: { ...params } });
  }
  async get(role: string): Promise<Role> {
    return this.http.request('GET', await this.at(path`/roles/${role}`));
  }
  async update(role: string, data: RoleUpdate): Promise<Role> {
    return this.http.request('PATCH', await this.at(path`/roles/${role}`), { body: data });
  }
  async delete(role: string): Promise<void> {
    return this.http.request('DELETE', await this.at(path`/roles/${role}`));
  }
}

/** Role derivations (Permit's implicit grants): `.../resources/{resource}/roles/{role}/implicit_grants`. */
export class RoleDerivationsApi extends SchemaPart {
  /** Users with `rule.role` on an `on_resource` instance linked by `linked_by_relation` get `role` on the object. */
  async create(resource: string, role: string, rule: DerivationRule): Promise<RoleDerivation> {
    return this.http.request('POST', await this.at(path`/resources/${resource}/roles/${role}/implicit_grants`), { body: rule });
  }
  async delete(resource: string, role: string, rule: DerivationRule): Promise<void> {
    return this.http.request('DELETE', await this.at(path`/resources/${resource}/roles/${role}/implicit_grants`), { body: rule });
  }
}

/** Roles of one resource type: `.../resources/{resource}/roles`. */
export class ResourceRolesApi extends SchemaPart {
  private readonly derivations = new RoleDerivationsApi(this.http);

  async create(resource: string, data: ResourceRoleCreate): Promise<ResourceRole> {
    return this.http.request('POST', await this.at(path`/resources/${resource}/roles`), { body: data });
  }
  /** A plain array, as Permit answers. */
  async list(resource: string, params: PageParams = {}): Promise<ResourceRole[]> {
    return this.http.request('GET', await this.at(path`/resources/${resource}/roles`), { query: { ...params } });
  }
  async get(resource: string, role: string): Promise<ResourceRole> {
    return this.http.request('GET', await this.at(path`/resources/${resource}/roles/${role}`));
  }
  /** `granted_to` replaces the role's derivations. */
  async update(resource: string, role: string, data: ResourceRoleUpdate): Promise<ResourceRole> {
    return this.http.request('PATCH', await this.at(path`/resources/${resource}/roles/${role}`), { body: data });
  }
  async delete(resource: string, role: string): Promise<void> {
    return this.http.request('DELETE', await this.at(path`/resources/${resource}/roles/${role}`));
  }
  /** Permit's name for {@link RoleDerivationsApi.create}. */
  createRoleDerivation(resource: string, role: string, rule: DerivationRule): Promise<RoleDerivation> {
    return this.derivations.create(resource, role, rule);
  }
  /** Permit's name for {@link RoleDerivationsApi.delete}. */
  deleteRoleDerivation(resource: string, role: string, rule: DerivationRule): Promise<void> {
    return this.derivations.delete(resource, role, rule);
  }
}

/** Relations of one resource type: `.../resources/{resource}/relations`. */
export class ResourceRelationsApi extends SchemaPart {
  /** "a `subject_resource` instance can be `key` of a `resource` instance". */
  async create(resource: string, data: RelationCreate): Promise<Relation> {
    return this.http.request('POST', await this.at(path`/resources/${resource}/relations`), { body: data });
  }
  async list(resource: string, params: PageParams = {}): Promise<Page<Relation>> {
    return this.http.request('GET', await this.at(path`/resources/${resource}/relations`), { query: { ...params } });
  }
  async get(resource: string, relation: string): Promise<Relation> {
    return this.http.request('GET', await this.at(path`/resources/${resource}/relations/${relation}`));
  }
  async update(resource: string, relation: string, data: RelationUpdate): Promise<Relation> {
    return this.http.request('PATCH', await this.at(path`/resources/${resource}/relations/${relation}`), { body: data });
  }
  /** Deletes the relation with its derivations and tuples. */
  async delete(resource: string, relation: string): Promise<void> {
    return this.http.request('DELETE', await this.at(path`/resources/${resource}/relations/${relation}`));
  }
}
