// @invalidates none
// @changes none
// @row none
MERGE (m:Migration {version: $version})
  ON CREATE SET m.name = $name, m.checksum = $checksum, m.applied_at = $at
