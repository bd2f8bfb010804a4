// @invalidates none
// @changes none
// @row { org: string }
// The organisation id (docs/behaviour.md section 14): ORG_ID when set, else the one kept in the graph,
// generated at the first start. Projects whose org id is not a UUID (91c0a63 wrote "default",
// or the ORG_ID of then) take it. Idempotent; run at every start (src/db/organization.ts).
MERGE (o:Organization {singleton: true})
  ON CREATE SET o.id = coalesce($orgId, randomUUID()), o.created_at = $nowIso
WITH coalesce($orgId, o.id) AS org
CALL (org) {
  MATCH (p:Project) WHERE p.org_id IS NULL OR NOT p.org_id =~ $uuidPattern
  SET p.org_id = org
}
RETURN org
