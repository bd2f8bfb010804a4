// @row { user: string; env: string }
// The user and environment of a login code (no row: unknown code): its redemption is recorded in
// that environment's audit log, with that user as the actor.
MATCH (c:LoginCode {hash: $codeHash})
RETURN c.user AS user, c.env AS env
