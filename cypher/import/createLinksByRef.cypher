// @invalidates none
// @changes none
// @row { created: number }
// One batch of import $importId, as createRelationships but with both ends found by the element
// ids that createNodes answered in this import (`fromRef`, `toRef`): a direct seek instead of two
// index lookups. Each end must still be the import's record of that id in environment $env (an
// element id of a deleted node can be taken again); `created` short of size($rows) otherwise.
// Nothing when the import is no longer the environment's. Renews the import's lease.
MATCH (e:Environment {id: $env}) WHERE e.import_id = $importId
SET e.import_lease_until = $leaseUntil
WITH e
UNWIND $rows AS row
MATCH (a) WHERE elementId(a) = row.fromRef AND a.env = $env AND a.id = row.from
MATCH (b) WHERE elementId(b) = row.toRef AND b.env = $env AND b.id = row.to
CREATE (a)-[r:$(row.type)]->(b)
// Each link property by name, as createRelationships.cypher sets them.
SET r.id = row.props.id, r.role = row.props.role, r.tenant = row.props.tenant, r.relation = row.props.relation,
    r.created_at = row.props.created_at, r.updated_at = row.props.updated_at, r.expires_at = row.props.expires_at
RETURN count(r) AS created
