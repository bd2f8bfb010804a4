/**
 * The shapes of stored records as statements answer them (`n {.*}`), named so that the `// @row`
 * headers of several statements can share them (scripts/gen-statement-types.cjs imports the ones
 * a header names into src/db/statements.generated.ts). docs/graph-model.md describes the nodes.
 */

export interface TenantNode {
  id: string;
  key: string;
  name: string;
  description: string | null;
  attributes_json: string | null;
  created_at: string;
  updated_at: string;
}

export interface UserNode {
  id: string;
  key: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  attributes_json: string | null;
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
  description: string | null;
  permissions: string[] | null;
  derivations: DerivationNode[];
}
export interface RelationNode extends Stamped {
  resource: string;
  name: string;
  description: string | null;
  subject_resource: string;
  subject_resource_id?: string | null;
  object_resource_id?: string | null;
}
export interface ResourceNode extends Stamped {
  name: string;
  attributes_json?: string | null;
  description: string | null;
  actions: string[] | null;
  actions_json: string | null;
  roles: ResourceRoleNode[];
  relations: RelationNode[];
}
export interface RoleNode extends Stamped {
  name: string;
  description: string | null;
  permissions: string[] | null;
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
  name: string | null;
  description: string | null;
  attributes_json: string | null;
  created_at: string;
  updated_at: string;
}

/** The events an approval or access request announces to its webhook (stored on each delivery). */
export type WebhookEvent = 'created' | 'approved' | 'denied' | 'canceled';
