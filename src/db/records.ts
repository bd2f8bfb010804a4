/**
 * The shapes of stored records as statements answer them (`n {.*}`), named so that the `// @row`
 * headers of several statements can share them (scripts/gen-statement-types.cjs imports the ones
 * a header names into src/db/statements.generated.ts). docs/graph-model.md describes the nodes.
 * Neo4j stores no null property: a property written null is absent from `n {.*}` (undefined), and
 * null in an explicit projection (`n {.a, .b}`); so a nullable property is optional here (`?: T | null`).
 */

export interface TenantNode {
  id: string;
  key: string;
  name: string;
  description?: string | null;
  attributes_json?: string | null;
  created_at: string;
  updated_at: string;
}

export interface UserNode {
  id: string;
  key: string;
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  attributes_json?: string | null;
  created_at: string;
  updated_at: string;
}

/** A user with its tenant roles and tenants, as the facts statements answer it. */
export interface UserRow {
  user: UserNode;
  roles: { role: string; tenant: string }[];
  tenants: string[];
}

/** What every schema record has. */
export interface Stamped {
  id: string;
  key: string;
  created_at: string;
  updated_at: string;
}
export interface DerivationNode {
  id: string;
  resource: string;
  role: string;
  on_resource: string;
  from_role: string;
  relation: string;
  /** Permit's `when: {no_direct_roles_on_object}`: the derived role does not apply where the user holds a direct role. */
  no_direct_roles_on_object?: boolean | null;
  created_at?: string;
  /** Ids of what it names (fragments/derivationRecord): the role required on `on_resource`, that resource, the relation. */
  role_id?: string | null;
  resource_id?: string | null;
  relation_id?: string | null;
}
export interface ResourceRoleNode extends Stamped {
  resource: string;
  resource_id?: string | null;
  name: string;
  description?: string | null;
  permissions?: string[] | null;
  /** The permissions as written (action groups unexpanded; docs/behaviour.md section 23). */
  declared_permissions?: string[] | null;
  derivations: DerivationNode[];
}
export interface RelationNode extends Stamped {
  resource: string;
  name: string;
  description?: string | null;
  subject_resource: string;
  subject_resource_id?: string | null;
  object_resource_id?: string | null;
}
export interface ResourceNode extends Stamped {
  name: string;
  attributes_json?: string | null;
  description?: string | null;
  actions?: string[] | null;
  actions_json?: string | null;
  roles: ResourceRoleNode[];
  /** The keys of its action groups (a resource role's permission may name one: docs/behaviour.md section 23). */
  action_groups?: string[];
  relations: RelationNode[];
}
export interface RoleNode extends Stamped {
  name: string;
  description?: string | null;
  permissions?: string[] | null;
  /** The permissions as written (action groups unexpanded; docs/behaviour.md section 23). */
  declared_permissions?: string[] | null;
}
export interface DerivationRefs {
  relationExists: boolean;
  relationSubject: string | null;
  onResourceExists: boolean;
  fromRoleExists: boolean;
  roleExists: boolean;
}

/** A session as the sessions statements answer it. */
export interface SessionNode {
  id: string;
  env: string;
  user: string;
  tenant: string;
  created_at?: string;
  expires_at: string;
}

/** A group instance (`Group:Instance`). */
export interface GroupNode {
  id: string;
  key: string;
  resource: string;
  tenant: string;
  name?: string | null;
  description?: string | null;
  attributes_json?: string | null;
  created_at: string;
  updated_at: string;
}

/** The events an approval or access request announces to its webhook (stored on each delivery). */
export type WebhookEvent = 'created' | 'approved' | 'denied' | 'canceled';

/** The state an elements request moved to (null while pending). */
export type ApprovalStatus = 'approved' | 'deny' | 'cancel';

/**
 * An elements request: an operation approval (`type` absent or `operation_approval`) or an access
 * request (`type: access_request`, asking for `role`; `resource`/`resource_instance` absent when
 * the role is a tenant role). Both share the node label, the transitions and the reviewer rules.
 */
export interface ApprovalNode {
  id: string;
  type?: 'operation_approval' | 'access_request' | null;
  config_id: string;
  tenant: string;
  resource: string;
  resource_instance: string;
  role?: string | null;
  granted_role?: string | null;
  access_expires_at?: string | null;
  requesting_user_id: string;
  reason: string;
  cancel_reason?: string | null;
  /** Absent while pending, as every other null-valued property of an `n {.*}` map; read as `== null` (src/areas/approvals/reviewFlow.ts). */
  status: ApprovalStatus | null;
  reviewer_user_id?: string | null;
  reviewed_at?: string | null;
  reviewer_comment?: string | null;
  created_at: string;
  updated_at: string;
  /** An operation approval that named no instance made one (a cancel or deny removes it again). */
  created_instance?: boolean | null;
}
export interface ApprovalItemNode extends ApprovalNode {
  requesting_user_email: string | null;
  requesting_user_first_name: string | null;
  requesting_user_last_name: string | null;
}

/** An elements config (`ElementsConfig`). */
export interface ElementsConfigNode {
  id: string;
  key: string;
  name: string;
  elements_type: string;
  settings_json?: string | null;
  roles_to_levels_json?: string | null;
  resources?: string[] | null;
  webhook_url?: string | null;
  webhook_bearer_token?: string | null;
  webhook_secret?: string | null;
  /** Set by create and by the update that gave the config its first secret: show the secret this once. */
  secret_is_new?: boolean;
  created_at: string;
  updated_at: string;
}

/** A project (`Project`, outside every environment). */
export interface ProjectNode {
  id: string;
  key: string;
  name: string;
  description?: string | null;
  org_id: string;
  created_at: string;
  updated_at: string;
}
/** An environment (`Environment`). */
export interface EnvironmentNode {
  id: string;
  key: string;
  name: string;
  description?: string | null;
  project_id: string;
  created_at: string;
  updated_at: string;
}
/** An API key as the statements answer it: never its digest. */
export interface ApiKeyNode {
  id: string;
  name?: string | null;
  /** The first characters of the secret; null on an environment's own key until a rotation gives it a secret. */
  prefix: string | null;
  /** Absent on keys made before access levels: those are `write` keys. */
  access_level?: 'read' | 'write' | null;
  env_id: string;
  project_id: string;
  created_at: string;
}

/** A resource instance as stored (`Instance`; a group is a `Group:Instance` with more). */
export interface StoredInstance {
  id: string;
  key: string;
  resource: string;
  tenant: string;
  attributes_json?: string | null;
  created_at?: string | null;
  updated_at?: string | null;
}
/** An instance with the ids of its resource and its tenant, as the instance statements answer it. */
export interface InstanceNode extends StoredInstance {
  /** Named in the projection: null, not absent, when there is none. */
  resource_id: string | null;
  tenant_id: string | null;
}
/** A condition set (docs/behaviour.md section 17): `conditions_json` is Permit's condition tree, as text. */
export interface ConditionSetNode extends Stamped {
  name: string;
  description: string | null;
  type: 'userset' | 'resourceset';
  resource: string | null;
  parent: string | null;
  conditions_json: string;
  autogenerated: boolean;
  resource_id?: string | null;
  parent_id?: string | null;
}
/** A set rule: `user_set` (a role with is_role) gets `permission` (`<resource>:<action>`) on `resource_set` (a resource type with is_resource). */
export interface SetRuleNode extends Stamped {
  user_set: string;
  permission: string;
  resource_set: string;
  is_role: boolean;
  is_resource: boolean;
}
/** An action group of a resource (docs/behaviour.md section 23). */
export interface ActionGroupNode extends Stamped {
  resource: string;
  resource_id?: string | null;
  name: string;
  description?: string | null;
  attributes_json?: string | null;
  actions?: string[] | null;
}
/** A proxy config holding URL-mapping rules (docs/behaviour.md section 24). */
export interface ProxyConfigNode extends Stamped {
  name: string;
  auth_mechanism?: string | null;
  mapping_rules_json?: string | null;
}
/** An invite a user redeems into a user with a role (docs/behaviour.md section 25). */
export interface UserInviteNode {
  id: string;
  key: string;
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  role_id: string;
  tenant_id: string;
  resource_instance_id?: string | null;
  status: 'pending' | 'approved';
  created_at: string;
  updated_at: string;
}
