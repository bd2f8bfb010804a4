import type { Db } from '../../db/db';

/** A tenant a user belongs to, with its stored attributes. */
export interface UserTenantRow {
  key: string;
  attributes_json: string | null;
}

/** The tenants of a user (Permit's "which tenants" questions ask the decisions area the rest). */
export class TenantAccessStore {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = this.db.statements({ userTenants: 'tenantAccess/userTenants' });
  }

  async userTenants(env: string, user: string): Promise<UserTenantRow[]> {
    const rows = await this.db.readRows(this.q.userTenants, { env, user });
    return rows.map((r) => ({ key: r.key as string, attributes_json: r.attributes_json as string | null }));
  }
}
