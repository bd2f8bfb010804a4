// The import's lease renewed (import/createNodes, createRelationships, renewLease): the environment's
// lock taken exclusively, held until the commit, so that an import taken over (cypher/import/begin.cypher)
// writes nothing more. In: `$env`, `$importId`, `$leaseUntil`. Out: `e`, the environment, only while
// import $importId is its import.
MATCH (e:Environment {id: $env}) WHERE e.import_id = $importId
SET e.import_lease_until = $leaseUntil
