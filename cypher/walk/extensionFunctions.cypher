// @row { names: string[] }
// The walk extension's functions this Neo4j has loaded (none: no extension, or a Neo4j that takes
// no plugins, such as Neo4j Aura). src/db/walkSelection.ts asks it at start and after each reconnection.
SHOW FUNCTIONS YIELD name WHERE name STARTS WITH 'graphauthz.'
RETURN collect(name) AS names
