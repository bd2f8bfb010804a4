/** Record shapes answered by the service (after Permit's v2 *Read models). */

export type Attributes = Record<string, unknown>;

interface Scoped {
  organization_id: string;
  project_id: string;
  environment_id: string;
}

export interface Project {
  id: string;
  key: string;
  name: string;
  description: string | null;
  organization_id: string;
  created_at: string;
  updated_at: string;
}
export interface Environment extends Project {
  project_id: string;
}
/** `write` changes the schema and facts; `read` only asks permission questions and reads. */
export type AccessLevel = 'write' | 'read';
export interface ApiKey {
  id: string;
  name: string | null;
  prefix: string;
  access_level: AccessLevel;
  organization_id: string;
  project_id: string;
  environment_id: string;
  created_at: string;
  /** Only in the answer of `create`. */
  secret?: string;
}
export interface NameFields {
  key: string;
  name: string;
  description?: string | null;
}

export interface Tenant extends Scoped {
  id: string;
  key: string;
  name: string;
  description: string | null;
  attributes: Attributes;
  created_at: string;
  updated_at: string;
}
export interface TenantCreate extends NameFields {
  attributes?: Attributes;
}
export type TenantUpdate = Partial<Pick<TenantCreate, 'name' | 'description' | 'attributes'>>;

export interface UserFields {
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  attributes?: Attributes;
}
export interface UserCreate extends UserFields {
  key: string;
}
export type UserUpdate = UserFields;
export interface User extends Scoped {
  id: string;
  key: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  attributes: Attributes;
  roles: Array<{ role: string; tenant: string }>;
  associated_tenants: string[];
  created_at: string;
  updated_at: string;
}

export interface ActionBlock {
  name?: string;
  description?: string | null;
}
export interface DerivationRule {
  /** The role required on `on_resource`. */
  role: string;
  on_resource: string;
  linked_by_relation: string;
}
export interface RoleBlock {
  name: string;
  description?: string | null;
  permissions?: string[];
  granted_to?: { users_with_role: DerivationRule[] };
}
export interface ResourceCreate extends NameFields {
  actions: Record<string, ActionBlock>;
  roles?: Record<string, RoleBlock>;
  /** relation key -> subject resource key */
  relations?: Record<string, string>;
}
export type ResourceUpdate = Partial<Omit<ResourceCreate, 'key'>>;
export type ResourceReplace = Omit<ResourceCreate, 'key'>;
export interface Resource extends Scoped {
  id: string;
  key: string;
  name: string;
  description: string | null;
  actions: Record<string, { key: string; id?: string; name: string; description: string | null }>;
  relations: Record<string, { key: string; name: string; description: string | null; resource: string; resource_id: string | null }>;
  roles: Record<string, ResourceRole>;
  created_at: string | null;
  updated_at: string | null;
}

export interface ResourceRoleCreate extends NameFields {
  permissions?: string[];
  granted_to?: { users_with_role: DerivationRule[] };
}
export type ResourceRoleUpdate = Partial<Omit<ResourceRoleCreate, 'key'>>;
export interface ResourceRole extends Scoped {
  id: string;
  key: string;
  name: string;
  description: string | null;
  permissions: string[];
  granted_to: { users_with_role: DerivationRule[] };
  resource: string;
  resource_id: string | null;
  created_at: string | null;
  updated_at: string | null;
}

export interface RoleCreate extends NameFields {
  /** `"<resource>:<action>"` */
  permissions?: string[];
}
export type RoleUpdate = Partial<Omit<RoleCreate, 'key'>>;
export interface Role extends Scoped {
  id: string;
  key: string;
  name: string;
  description: string | null;
  permissions: string[];
  created_at: string | null;
  updated_at: string | null;
}

export interface RelationCreate extends NameFields {
  subject_resource: string;
}
export type RelationUpdate = Partial<Pick<RelationCreate, 'name' | 'description'>>;
export interface Relation extends Scoped {
  id: string;
  key: string;
  name: string;
  description: string | null;
  subject_resource: string;
  subject_resource_id: string | null;
  object_resource: string;
  object_resource_id: string | null;
  created_at: string | null;
  updated_at: string | null;
}

export interface RoleDerivation extends DerivationRule, Scoped {
  id: string;
  resource: string;
  resource_role: string;
  created_at: string | null;
}

export interface ResourceInstanceCreate {
  key: string;
  tenant: string;
  resource: string;
  attributes?: Attributes;
}
export interface ResourceInstance extends Scoped {
  id: string;
  key: string;
  resource: string;
  resource_id: string | null;
  tenant: string;
  tenant_id: string | null;
  attributes: Attributes;
  created_at: string | null;
  updated_at: string | null;
}

export interface RoleAssignmentCreate {
  user: string;
  role: string;
  tenant?: string;
  /** `"<resource>:<key>"`; absent: a tenant role. */
  resource_instance?: string;
}
export type RoleAssignmentRemove = RoleAssignmentCreate;
export interface RoleAssignment extends Scoped {
  id: string;
  user: string;
  role: string;
  tenant: string;
  resource_instance?: string;
  created_at: string | null;
}

export interface RelationshipTupleCreate {
  /** `"<resource>:<key>"` */
  subject: string;
  relation: string;
  /** `"<resource>:<key>"` */
  object: string;
  tenant?: string;
}
export type RelationshipTupleDelete = RelationshipTupleCreate;
export interface RelationshipTuple extends Scoped {
  id: string;
  subject: string;
  relation: string;
  object: string;
  tenant: string;
  created_at: string | null;
  [extra: string]: unknown;
}

export interface GroupCreate {
  group_instance_key: string;
  /** The group type (a resource); default `group`. */
  group_resource_type_key?: string | null;
  group_tenant: string;
  name?: string | null;
  description?: string | null;
  attributes?: Attributes;
}
export interface GroupUpdate {
  name?: string | null;
  description?: string | null;
  attributes?: Attributes;
}
export interface Group extends Scoped {
  id: string;
  group_instance_key: string;
  group_resource_type_key: string;
  group_tenant: string;
  name: string | null;
  description: string | null;
  attributes: Attributes;
  /** `"<resource>:<instance>#<role>"` */
  assigned_roles: string[];
  /** user keys */
  users: string[];
  created_at: string;
  updated_at: string;
}
export interface GroupRoleAssignment {
  resource: string;
  resource_instance: string;
  role: string;
  tenant: string;
}
export interface GroupResourceInstance {
  resource: string;
  resource_instance: string;
  tenant: string;
}
export interface GroupMember {
  id: string;
  key: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  attributes: Attributes;
  created_at: string;
  updated_at: string;
}
export interface AttachedInstance {
  id: string;
  key: string;
  resource: string;
  tenant: string;
  attributes: Attributes;
  attached_at: string;
}
