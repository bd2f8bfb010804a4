// @invalidates none
MATCH (s:Session {id: $id})
WHERE s.env = $env
DETACH DELETE s
RETURN count(*) AS deleted
