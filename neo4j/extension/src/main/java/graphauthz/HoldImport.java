package graphauthz;

import java.util.stream.Stream;

import org.neo4j.graphdb.Label;
import org.neo4j.graphdb.Node;
import org.neo4j.graphdb.Transaction;
import org.neo4j.procedure.Context;
import org.neo4j.procedure.Description;
import org.neo4j.procedure.Mode;
import org.neo4j.procedure.Name;
import org.neo4j.procedure.Procedure;

/**
 * graphauthz.holdImport: the first step of a batch of an import with the extension
 * (cypher/import/createNodesExt.cypher, createRelationshipsExt.cypher). The environment's lock is
 * taken shared, held until the batch's transaction ends, and the environment's mark read under it:
 * a row only while the import is still the environment's. Two batches of one import hold it side by
 * side and are written at once; a takeover of the import (cypher/import/begin.cypher), its end and
 * its abandon take the lock exclusively, so each waits for the batches in flight to commit, and a
 * batch after them finds the mark changed and writes nothing. (The Cypher statements renew the
 * import's lease in every batch instead, which takes the lock exclusively: one batch at a time.)
 * docs/walk-extension.md ("Writes").
 */
public final class HoldImport {
    private static final Label ENVIRONMENT = Label.label("Environment");

    @Context
    public Transaction tx;

    /** The row: the environment held. */
    public static class Held {
        public String env;

        Held(String env) {
            this.env = env;
        }
    }

    @Procedure(name = "graphauthz.holdImport", mode = Mode.READ)
    @Description("Shares environment $env's lock until the transaction ends; a row only while import $importId is the environment's.")
    public Stream<Held> holdImport(@Name("env") String env, @Name("importId") String importId) {
        Node environment = tx.findNode(ENVIRONMENT, "id", env);
        if (environment == null) return Stream.empty();
        // Not released here: held until the transaction commits or rolls back.
        tx.acquireReadLock(environment);
        if (!importId.equals(environment.getProperty("import_id", null))) return Stream.empty();
        return Stream.of(new Held(env));
    }
}
