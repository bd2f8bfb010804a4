// Rule: where a user's walk starts. A user's direct role assignments are the live
// (fragments/rule/grantIsLive) HAS_ROLE edges from the user to instances; a group membership is
// one of them (the role `member` on the group instance).
// Needs: holder (a User node, or null: no assignments), $nowMs. Binds:
//   directAssignments  [{node, role, until}] until: the edge's expires_at (null: none)
//   directNodes        [elementId] their instances, where a `no_direct_roles_on_object`
//                      derivation gives nothing (fragments/rule/derivationStep)
WITH *, CASE WHEN holder IS NULL THEN [] ELSE [(holder)-[grant:HAS_ROLE]->(assigned) WHERE
// #include fragments/rule/grantIsLive
          | {node: assigned, role: grant.role, until: grant.expires_at}] END AS directAssignments
WITH *, [assignment IN directAssignments | elementId(assignment.node)] AS directNodes
