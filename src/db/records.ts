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
