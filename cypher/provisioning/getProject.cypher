// @row { project: ProjectNode }
OPTIONAL MATCH (byKey:Project {key: $ref})
OPTIONAL MATCH (byId:Project {id: $ref})
// #include fragments/keyElseId
WITH referenced AS p WHERE p IS NOT NULL
RETURN p {.*} AS project
