// @row { ok: number }
RETURN 1 AS ok
