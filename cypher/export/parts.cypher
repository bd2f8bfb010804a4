// @row { revision: number; heldMs: number; section: string; part: string; lines: number }
// The records and links of environment $env an export holds (cypher/export/nodes.cypher and
// relationships.cypher, the same selection), read by the walk extension (graphauthz.exportParts,
// neo4j/extension) at one revision: it takes the environment's lock (writers wait), reads the
// revision and every record and link into memory (giving up after $holdMs: one row, section
// `too_large`), lets the writers go, then answers parts of about $partChars characters of lines:
// `nodes` (labels, a tab, properties: the service makes the line) or `relationships` (the
// export's own lines). An environment without records answers one row, section `none`; a missing
// environment, no row.
CALL graphauthz.exportParts($env, $partChars, $holdMs) YIELD revision, heldMs, section, part, lines
RETURN revision, heldMs, section, part, lines
