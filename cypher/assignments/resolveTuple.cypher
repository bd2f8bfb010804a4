// What a tuple {subject, relation, object, tenant?} refers to, for the domain's checks.
OPTIONAL MATCH (rel:Relation {env: $env, resource: $object_type, key: $relation})
OPTIONAL MATCH (s:Instance {env: $env, resource: $subject_type, key: $subject_key})
OPTIONAL MATCH (o:Instance {env: $env, resource: $object_type, key: $object_key})
RETURN EXISTS { MATCH (:Resource {env: $env, key: $subject_type}) } AS subjectTypeExists,
       EXISTS { MATCH (:Resource {env: $env, key: $object_type}) } AS objectTypeExists,
       rel IS NOT NULL AS relationExists,
       rel.subject_resource AS relationSubject,
       s IS NOT NULL AS subjectExists, s.tenant AS subjectTenant,
       o IS NOT NULL AS objectExists, o.tenant AS objectTenant,
       ($tenant IS NOT NULL AND EXISTS { MATCH (:Tenant {env: $env, key: $tenant}) }) AS tenantExists
