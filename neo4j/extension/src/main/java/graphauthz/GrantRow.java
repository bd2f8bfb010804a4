package graphauthz;

/**
 * What a write procedure of grants answers, as its statement's `// @row` (cypher/assignments/
 * assignInstanceRoles.cypher, createTuples.cypher): the items written, the expired grants renewed,
 * the id, created_at and tenant of the first written item, and the edges created (a procedure's
 * writes are not in the statement's counters).
 */
public class GrantRow {
    public long written;
    public long renewed;
    public long edgesCreated;
    public String id;
    public String created_at;
    public String tenant;

    /** Counts one written item; the first names the row's id, created_at and tenant. */
    void count(GrantEdges.Merged merged, String itemTenant) {
        written++;
        if (merged.created()) edgesCreated++;
        if (merged.renewed()) renewed++;
        if (written == 1) {
            id = merged.id();
            created_at = merged.createdAt();
            tenant = itemTenant;
        }
    }
}
