// @row { revision: number; heldMs: number; section: string; part: string; lines: number }
// The records and links of environment $env an export holds (cypher/export/nodes.cypher and
// relationships.cypher, the same selection), read by the walk extension (graphauthz.exportParts,
// neo4j/extension) at one revision R while writes go on: it takes the environment's lock (writers
// wait) only to read R and open a capture of every later change, reads every record and link into
// memory, takes the lock again briefly to make what changed since R from the capture, then answers
// parts of about $partChars characters of lines (a capture that fails: the read is done again with
// the writers held, giving up after $holdMs: one row, section `too_large`):
// `nodes` (labels, a tab, properties: the service makes the line) or `relationships` (the
// export's own lines). An environment without records answers one row, section `none`; a missing
// environment, no row.
CALL graphauthz.exportParts($env, $partChars, $holdMs) YIELD revision, heldMs, section, part, lines
RETURN revision, heldMs, section, part, lines
