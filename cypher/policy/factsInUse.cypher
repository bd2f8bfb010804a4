// @row { used: { kind: 'resource' | 'resource_role' | 'relation' | 'role' | 'elements_config'; resource: string | null; key: string; n: number; what: string }[] }
// How many facts use each schema record a policy would remove, so that apply can refuse the
// removal (or, with prune, say what it removes with it). $resources: resource keys; $resourceRoles
// and $relations: [{resource, key}]; $roles: tenant role keys; $configs: elements config keys (used
// by their operation approvals and access requests, any status). Answers only those in use.
CALL () {
  UNWIND $resources AS key
  CALL (key) { MATCH (i:Instance {env: $env, resource: key}) RETURN count(i) AS n }
  RETURN collect(CASE WHEN n > 0 THEN {kind: 'resource', resource: key, key: key, n: n, what: 'resource instances'} END) AS a
}
CALL () {
  UNWIND $resourceRoles AS x
  CALL (x) {
    MATCH (:User {env: $env})-[h:HAS_ROLE {role: x.key}]->(:Instance {env: $env, resource: x.resource})
    RETURN count(h) AS n
  }
  RETURN collect(CASE WHEN n > 0 THEN {kind: 'resource_role', resource: x.resource, key: x.key, n: n, what: 'role assignments'} END) AS b
}
CALL () {
  UNWIND $relations AS x
  CALL (x) {
    MATCH (:Instance {env: $env})-[e:RELATED {relation: x.key}]->(:Instance {env: $env, resource: x.resource})
    RETURN count(e) AS n
  }
  RETURN collect(CASE WHEN n > 0 THEN {kind: 'relation', resource: x.resource, key: x.key, n: n, what: 'relationship tuples'} END) AS c
}
CALL () {
  UNWIND $roles AS key
  CALL (key) {
    RETURN COUNT { MATCH (:User {env: $env})-[:HAS_TENANT_ROLE {role: key}]->(:Tenant) }
         + COUNT { MATCH (:User {env: $env})-[:HAS_ROLE {role: key}]->(i:Instance {env: $env})
                   WHERE NOT EXISTS { MATCH (:ResourceRole {env: $env, resource: i.resource, key: key}) } } AS n
  }
  RETURN collect(CASE WHEN n > 0 THEN {kind: 'role', resource: null, key: key, n: n, what: 'role assignments'} END) AS d
}
CALL () {
  UNWIND $configs AS key
  CALL (key) {
    MATCH (cfg:ElementsConfig {env: $env, key: key})
    RETURN COUNT { MATCH (:OperationApproval)-[:OF_CONFIG]->(cfg) } AS n
  }
  RETURN collect(CASE WHEN n > 0 THEN {kind: 'elements_config', resource: null, key: key, n: n,
                                       what: 'requests (operation approvals and access requests)'} END) AS e
}
RETURN a + b + c + d + e AS used
