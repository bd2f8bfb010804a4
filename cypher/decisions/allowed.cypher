// @row { idx: number; allow: boolean; validUntil: number | null; depthLimited: boolean;
//   explanation: { user_found: boolean; tenant: string; granting_roles: string[]; tenant_role_grant: boolean;
//                  searched: boolean; states_visited: number; paths: string[] } | null;
//   stored: { user: { key: string; email: string | null; attributes_json: string | null; tenant_roles: { tenant: string; role: string }[] } | null;
//             instance: { type: string; key: string; tenant: string; attributes_json: string | null } | null } | null;
//   revision: number | null }
// Answers a batch of permission questions ($checks: [{user, action, type, key?, tenant?}]) in one
// round trip. For each question:
//  1. the roles that give `action` on `type` (fragments/rolesOnType);
//  2. a tenant role held in the instance's tenant (a question without instance or tenant:
//     $defaultTenant) that gives the action (fragments/rule/tenantScopeGrant) allows at once (with $explain the walk still runs,
//     to show every granting path);
//  3. otherwise the walk goes backwards from the instance with each granting role as a needed
//     role (fragments/reachableStates) and allows when the user holds a reached state's role on
//     its node; it stops at the first such state unless $explain asks for every path.
// depthLimited: denied, and MAX_DERIVATION_DEPTH cut the walk before it ended.
// Edges whose `expires_at` (epoch ms) is at or before $nowMs grant nothing (fragments/rule/grantIsLive). validUntil (epoch ms,
// null: no limit): the answer may change then without a write: an allow at the earliest expiry
// on the granting path it found, a deny (only where a `no_direct_roles_on_object` derivation
// exists) at the earliest expiry of the user's direct roles.
// stored: for a question that asks it (`stored: true`: a set rule may decide it), what the set rules
// read of its user and instance (as cypher/conditions/questionAttributes.cypher reads them), in the
// same round trip; null otherwise.
// revision: the environment's revision, read in the same query (null: no such environment). On one
// Neo4j (no secondaries) a read sees every commit made before it was sent, so this read keeps the
// environment fresh in the coherence window as a revision read would (src/areas/decisions/revisions.ts).
// #include fragments/derivations
UNWIND range(0, size($checks) - 1) AS questionIndex
WITH derivations, roleHierarchy, resourceRoleKeys, questionIndex, $checks[questionIndex] AS question
WITH derivations, roleHierarchy, resourceRoleKeys, questionIndex, question, question.type AS resourceType, question.action AS action
OPTIONAL MATCH (user:User {env: $env, key: question.user})
OPTIONAL MATCH (target:Instance {env: $env, resource: resourceType, key: question.key})
// #include fragments/rolesOnType
WITH *, [grant IN rolesOnType WHERE action IN grant.actions | grant.role] AS instanceRolesGranting,
     [grant IN tenantRolesOnType WHERE action IN grant.actions | grant.role] AS tenantRolesGranting,
     coalesce(target.tenant, question.tenant, $defaultTenant) AS tenant
WITH *, user IS NOT NULL AND (question.tenant IS NULL OR question.tenant = tenant) AS viable
WITH *, CASE WHEN viable
          THEN [(user)-[grant:HAS_TENANT_ROLE]->(heldIn:Tenant) WHERE heldIn.env = $env AND heldIn.key = tenant AND
// #include fragments/rule/tenantScopeGrant
                  | {role: grant.role, until: grant.expires_at}]
          ELSE [] END AS tenantGrantsHeld,
        CASE WHEN viable THEN user END AS holder
// #include fragments/rule/directAssignments
WITH *, [grant IN tenantGrantsHeld | grant.role] AS tenantRolesHeld,
        [assignment IN directAssignments | elementId(assignment.node) + '|' + assignment.role] AS heldStates
WITH *, size(tenantRolesHeld) > 0 AS byTenantRole
WITH *, CASE WHEN (byTenantRole AND NOT $explain) OR NOT viable OR target IS NULL THEN []
          ELSE [role IN instanceRolesGranting | {node: target, role: role,
                 trail: CASE WHEN $explain THEN target.resource + ':' + target.key + '#' + role ELSE '' END}] END AS startStates,
        false AS searchForward, $explain AS withTrails, CASE WHEN $explain THEN [] ELSE heldStates END AS stopWhenReached
// #include fragments/reachableStates
WITH *, [i IN range(0, size(reachedKeys) - 1) WHERE reachedKeys[i] IN heldStates | i] AS hits
WITH *, CASE WHEN byTenantRole THEN [grant IN tenantGrantsHeld | grant.until]
             WHEN size(hits) > 0 THEN [reachedStates[hits[0]].until] + [i IN range(0, size(heldStates) - 1) WHERE heldStates[i] = reachedKeys[hits[0]] | directAssignments[i].until]
             WHEN any(derivation IN derivations WHERE derivation.no_direct_roles_on_object) THEN [assignment IN directAssignments | assignment.until]
             ELSE [] END AS expiries
WITH *, user AS u
RETURN questionIndex AS idx, byTenantRole OR size(hits) > 0 AS allow,
       reduce(earliest = null, expiry IN expiries | CASE WHEN expiry IS NULL THEN earliest
              WHEN earliest IS NULL OR expiry < earliest THEN expiry ELSE earliest END) AS validUntil,
       NOT byTenantRole AND size(hits) = 0 AND depthLimited AS depthLimited,
       CASE WHEN NOT $explain THEN null ELSE {
         user_found: user IS NOT NULL,
         tenant: tenant,
         granting_roles: instanceRolesGranting,
         tenant_role_grant: byTenantRole,
         searched: size(startStates) > 0,
         states_visited: size(reachedKeys),
         paths: [role IN tenantRolesHeld | 'user:' + user.key + ' -' + role + '-> tenant:' + tenant]
                + [i IN hits | 'user:' + user.key + ' -' + split(reachedKeys[i], '|')[1] + '-> ' + reachedStates[i].trail]
       } END AS explanation,
       CASE WHEN question.stored = true THEN {
         user: CASE WHEN u IS NULL THEN null ELSE {key: u.key, email: u.email, attributes_json: u.attributes_json, tenant_roles:
// #include fragments/rule/heldTenantRoles
         } END,
         instance: CASE WHEN target IS NULL THEN null
                   ELSE {type: target.resource, key: target.key, tenant: target.tenant, attributes_json: target.attributes_json} END
       } END AS stored,
       head(COLLECT { MATCH (environment:Environment {id: $env}) RETURN coalesce(environment.revision, 0) }) AS revision
ORDER BY idx
