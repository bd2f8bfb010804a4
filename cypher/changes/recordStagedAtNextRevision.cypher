// @invalidates none
// @changes none
// @row { revision: number }
// The last statement of a write transaction whose change set was staged
// (cypher/changes/stageChangeSet.cypher): moves environment $env's revision as
// cypher/changes/recordAtNextRevision.cypher does (its write lock, held until the commit) and gives
// that revision to the staged ChangeSet $staged. An environment deleted since the stage (its lock
// was waited for here) moves no revision and keeps no change set: the staged node is removed, no row.
OPTIONAL MATCH (e:Environment {id: $env})
MATCH (cs:ChangeSet) WHERE elementId(cs) = $staged
FOREACH (_ IN CASE WHEN e IS NULL THEN [1] ELSE [] END | DELETE cs)
WITH e, cs WHERE e IS NOT NULL
SET e.revision = coalesce(e.revision, 0) + 1
SET cs.revision = e.revision
RETURN e.revision AS revision
