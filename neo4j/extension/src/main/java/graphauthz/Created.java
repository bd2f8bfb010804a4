package graphauthz;

/**
 * The row of the import's write procedures (ImportRecords, ImportLinks): the records or links a batch
 * created, as the Cypher statements' `count(...) AS created`.
 */
public final class Created {
    public long created;

    Created(long created) {
        this.created = created;
    }
}
