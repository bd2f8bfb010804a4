// @row { idx: number; subjectTypeExists: boolean; objectTypeExists: boolean; relationExists: boolean; relationSubject: string | null;
//   subjectExists: boolean; subjectTenant: string | null; objectExists: boolean; objectTenant: string | null; tenantExists: boolean }
// What each tuple of $items {subject_type, subject_key, relation, object_type, object_key, tenant}
// refers to, for the domain's checks; one row per item, in order.
UNWIND range(0, size($items) - 1) AS idx
WITH idx, $items[idx] AS x
OPTIONAL MATCH (rel:Relation {env: $env, resource: x.object_type, key: x.relation})
OPTIONAL MATCH (s:Instance {env: $env, resource: x.subject_type, key: x.subject_key})
OPTIONAL MATCH (o:Instance {env: $env, resource: x.object_type, key: x.object_key})
RETURN idx,
       EXISTS { MATCH (:Resource {env: $env, key: x.subject_type}) } AS subjectTypeExists,
       EXISTS { MATCH (:Resource {env: $env, key: x.object_type}) } AS objectTypeExists,
       rel IS NOT NULL AS relationExists,
       rel.subject_resource AS relationSubject,
       s IS NOT NULL AS subjectExists, s.tenant AS subjectTenant,
       o IS NOT NULL AS objectExists, o.tenant AS objectTenant,
       (x.tenant IS NOT NULL AND EXISTS { MATCH (:Tenant {env: $env, key: x.tenant}) }) AS tenantExists
ORDER BY idx
