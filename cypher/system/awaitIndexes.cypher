// @row none
CALL db.awaitIndexes(60)
