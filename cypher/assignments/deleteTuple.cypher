MATCH (:Instance {env: $env, resource: $subject_type, key: $subject_key})-[r:RELATED {relation: $relation}]->(:Instance {env: $env, resource: $object_type, key: $object_key})
WHERE $tenant IS NULL OR r.tenant = $tenant
DELETE r
RETURN count(*) AS removed
