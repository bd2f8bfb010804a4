import type { Db } from '../../db/db';

import type { StatementRows } from '../../db/statements.generated';

/** A tenant a user belongs to, with its stored attributes. */
export type UserTenantRow = StatementRows['tenantAccess/userTenants'];

/** The tenants of a user (Permit's "which tenants" questions ask the decisions area the rest). */
export class TenantAccessStore {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = this.db.statements({ userTenants: 'tenantAccess/userTenants' });
  }

  async userTenants(env: string, user: string): Promise<UserTenantRow[]> {
    return this.db.readRows(this.q.userTenants, { env, user });
  }
}
