MATCH (s:Session {id: $id})
DETACH DELETE s
RETURN count(*) AS deleted
