// @row { relationships: { instance: string; subject: string; relation: string; object: string }[] }
// The relationship tuples naming each of these instances (by id) as subject or as object, for
// Permit's ResourceInstanceDetailedRead `relationships` (RelationshipTupleBlockRead: subject,
// relation, object as "<resource>:<key>"), oldest first.
UNWIND $ids AS wanted
MATCH (i:Instance:InEnv {env: $env, id: wanted})
CALL (i) {
  MATCH (i)-[r:RELATED]->(o:Instance)
  RETURN i.resource + ':' + i.key AS subject, r.relation AS relation, o.resource + ':' + o.key AS object, r.created_at AS at
  UNION ALL
  MATCH (s:Instance)-[r:RELATED]->(i)
  RETURN s.resource + ':' + s.key AS subject, r.relation AS relation, i.resource + ':' + i.key AS object, r.created_at AS at
}
WITH i, subject, relation, object, at ORDER BY at, subject, relation, object
RETURN collect({instance: i.id, subject: subject, relation: relation, object: object}) AS relationships
