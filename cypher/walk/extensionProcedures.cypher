// @row { names: string[] }
// The walk extension's procedures this Neo4j has loaded (dbms.security.procedures.allowlist may
// leave some out): the extension answers only when every procedure the service calls is there.
SHOW PROCEDURES YIELD name WHERE name STARTS WITH 'graphauthz.'
RETURN collect(name) AS names
