// @row { version: number; checksum: string }
MATCH (m:Migration)
RETURN m.version AS version, m.checksum AS checksum
