import type { Db } from './db';
import { now } from '../util/time';

/** A UUID in its canonical text form (what Permit's SDKs parse as `organization_id`). */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/**
 * The organisation id (docs/behaviour.md section 14): `ORG_ID` when set, else the UUID kept in the graph
 * (generated at the first start). Projects a previous version wrote with a non-UUID org id
 * ("default") are given it in the same statement.
 */
export async function resolveOrganization(db: Db, orgId: string | undefined): Promise<string> {
  return db.write(async (tx) => {
    const row = await tx.one(db.statement('system/organization'), { orgId: orgId ?? null, nowIso: now(), uuidPattern: UUID_PATTERN });
    return row!.org;
  });
}
