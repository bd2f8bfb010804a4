// The user a login code logs in, the actor of its redemption in the audit log (no row: unknown code).
MATCH (c:LoginCode {hash: $codeHash})
RETURN c.user AS user
