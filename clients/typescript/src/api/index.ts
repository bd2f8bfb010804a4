import type { Http } from '../http.js';
import { RelationshipTuplesApi, RoleAssignmentsApi } from './assignments.js';
import { ResourceInstancesApi, TenantsApi, UsersApi } from './facts.js';
import { GroupsApi } from './groups.js';
import { ApiKeysApi, EnvironmentsApi, ProjectsApi } from './provisioning.js';
import { ResourceRelationsApi, ResourceRolesApi, ResourcesApi, RoleDerivationsApi, RolesApi } from './schema.js';

/** `client.api`: the schema, facts and provisioning collections (names after Permit's `permit.api`). */
export class Api {
  readonly projects: ProjectsApi;
  readonly environments: EnvironmentsApi;
  readonly apiKeys: ApiKeysApi;
  readonly tenants: TenantsApi;
  readonly users: UsersApi;
  readonly resources: ResourcesApi;
  /** Tenant-level roles. */
  readonly roles: RolesApi;
  readonly resourceRoles: ResourceRolesApi;
  readonly resourceRelations: ResourceRelationsApi;
  /** Same object as `resourceRelations`. */
  readonly relations: ResourceRelationsApi;
  readonly roleDerivations: RoleDerivationsApi;
  /** Same object as `roleDerivations` (Permit's name). */
  readonly implicitGrants: RoleDerivationsApi;
  readonly resourceInstances: ResourceInstancesApi;
  readonly roleAssignments: RoleAssignmentsApi;
  readonly relationshipTuples: RelationshipTuplesApi;
  readonly groups: GroupsApi;

  constructor(http: Http) {
    this.projects = new ProjectsApi(http);
    this.environments = new EnvironmentsApi(http);
    this.apiKeys = new ApiKeysApi(http);
    this.tenants = new TenantsApi(http);
    this.users = new UsersApi(http);
    this.resources = new ResourcesApi(http);
    this.roles = new RolesApi(http);
    this.resourceRoles = new ResourceRolesApi(http);
    this.resourceRelations = this.relations = new ResourceRelationsApi(http);
    this.roleDerivations = this.implicitGrants = new RoleDerivationsApi(http);
    this.resourceInstances = new ResourceInstancesApi(http);
    this.roleAssignments = new RoleAssignmentsApi(http);
    this.relationshipTuples = new RelationshipTuplesApi(http);
    this.groups = new GroupsApi(http);
  }
}

export * from './assignments.js';
export * from './facts.js';
export * from './groups.js';
export * from './provisioning.js';
export * from './schema.js';
