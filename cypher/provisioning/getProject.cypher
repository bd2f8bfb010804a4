MATCH (p:Project)
WHERE p.id = $ref OR p.key = $ref
RETURN p {.*} AS project
