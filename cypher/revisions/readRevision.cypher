// @row { revision: number }
// The revision of one environment, read per group of permission questions (read-your-revoke):
// a unique-constraint lookup, so it costs about a round trip.
MATCH (e:Environment {id: $envId})
RETURN coalesce(e.revision, 0) AS revision
