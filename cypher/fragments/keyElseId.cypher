// The reference rule (docs/behaviour.md section 8), the one every `{x_id}` path parameter follows: it
// names the record whose key equals it, else the record whose id equals it, never both, so a
// key shaped like another record's id reaches only the record of that key.
// In: `byKey`, the record in scope whose key equals the reference (keys are unique in their
// scope), and `byId`, the record in scope whose id equals it; either may be null.
// Out: `referenced`, the record the reference names, or null. A record that a concurrent
// transaction deleted after this one found it reads with no properties (read committed): it is
// null here too, so that no caller goes on with a record whose key reads as null.
WITH *, [found IN [coalesce(byKey, byId)] WHERE found IS NOT NULL AND size(keys(found)) > 0][0] AS referenced
