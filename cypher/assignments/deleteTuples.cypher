// @invalidates $env
// Removes the tuples of $items that exist (a tuple's tenant, when given, must match); answers how many.
UNWIND $items AS x
OPTIONAL MATCH (:Instance {env: $env, resource: x.subject_type, key: x.subject_key})-[r:RELATED {relation: x.relation}]->(:Instance {env: $env, resource: x.object_type, key: x.object_key})
WHERE x.tenant IS NULL OR r.tenant = x.tenant
WITH collect(DISTINCT r) AS found
FOREACH (r IN found | DELETE r)
RETURN size(found) AS removed
