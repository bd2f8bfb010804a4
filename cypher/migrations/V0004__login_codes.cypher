// One-time login codes are found by the SHA-256 digest of the code; the code itself is never stored.
CREATE CONSTRAINT login_code_hash IF NOT EXISTS FOR (c:LoginCode) REQUIRE c.hash IS UNIQUE;
