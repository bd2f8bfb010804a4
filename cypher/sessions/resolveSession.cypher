// @row { session: SessionNode | null; member: boolean; project: { id: string; key: string; org_id: string | null } | null;
//   environment: { id: string; key: string } | null; config: { id: string; key: string } | null }
// One round trip per session-authenticated request: the session (by token digest), whether its
// user still belongs to its tenant, the path's project/environment (the session's own when the
// path names none) and the path's elements config, each by the reference rule (key, else id).
OPTIONAL MATCH (s:Session {hash: $hash})
OPTIONAL MATCH (byKey:Project {key: $proj})
OPTIONAL MATCH (byId:Project {id: $proj})
// #include fragments/keyElseId
WITH s, referenced AS pathProject
OPTIONAL MATCH (pathProject)-[:HAS_ENV]->(byKey:Environment {key: $env})
OPTIONAL MATCH (pathProject)-[:HAS_ENV]->(byId:Environment {id: $env})
// #include fragments/keyElseId
WITH s, pathProject, referenced AS pathEnv
OPTIONAL MATCH (ownProject:Project)-[:HAS_ENV]->(ownEnv:Environment {id: s.env}) WHERE $proj IS NULL
WITH s, CASE WHEN $proj IS NULL THEN ownProject ELSE pathProject END AS p,
        CASE WHEN $proj IS NULL THEN ownEnv ELSE pathEnv END AS e
OPTIONAL MATCH (byKey:ElementsConfig {env: e.id, key: $config})
OPTIONAL MATCH (byId:ElementsConfig {id: $config}) WHERE byId.env = e.id
// #include fragments/keyElseId
WITH s, p, e, referenced AS c
RETURN s {.id, .env, .user, .tenant, .expires_at} AS session,
       s IS NOT NULL AND EXISTS {
         MATCH (:User {env: s.env, key: s.user})-[:IN_TENANT]->(:Tenant {env: s.env, key: s.tenant})
       } AS member,
       p {.id, .key, .org_id} AS project, e {.id, .key} AS environment, c {.id, .key} AS config
