// @row { idx: number; tenantExists: boolean; taken: boolean }
// For each group of $items {key, type, tenant}: does its tenant exist, is its key taken?
UNWIND range(0, size($items) - 1) AS idx
WITH idx, $items[idx] AS x
RETURN idx,
       EXISTS { MATCH (:Tenant {env: $env, key: x.tenant}) } AS tenantExists,
       (EXISTS { MATCH (:Group {env: $env, key: x.key}) } OR EXISTS { MATCH (:Instance {env: $env, resource: x.type, key: x.key}) }) AS taken
ORDER BY idx
