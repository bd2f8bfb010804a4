// @row { labels: string[]; types: string[] }
CALL db.schema.visualization() YIELD nodes, relationships
RETURN [n IN nodes | labels(n)[0]] AS labels, [r IN relationships | type(r)] AS types
