package graphauthz;

import java.util.function.Supplier;

import org.neo4j.graphdb.NotFoundException;
import org.neo4j.kernel.api.exceptions.Status;

/**
 * A walk reads committed state without locks: a record or edge it found may be deleted by a commit
 * before it reads it (an instance removed while a check reads it: a denied or cancelled operation
 * approval removes the instance it made). The core API then throws NotFoundException, caused by the
 * kernel's EntityNotFoundException ("Unable to load NODE ..."). The read procedures ask again
 * instead of failing: a new attempt, in the same transaction, no longer finds what was deleted. At
 * most ATTEMPTS attempts (each after a commit that deleted something the previous one read); when
 * every one of them met a deletion, the call fails with Raced, a transient error, which the
 * service's read sends again after a pause (src/db/db.ts, readOnce) instead of answering 500.
 */
final class Vanished {
    /** The system property that sets ATTEMPTS (a test sets 1, so that one deletion is enough). */
    static final String ATTEMPTS_PROPERTY = "graphauthz.vanished.attempts";
    static final int ATTEMPTS = Math.max(1, Integer.getInteger(ATTEMPTS_PROPERTY, 5));

    private Vanished() {}

    static <T> T retry(Supplier<T> call) {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.get();
            } catch (RuntimeException e) {
                if (!vanished(e)) throw e;
                if (attempt >= ATTEMPTS) throw new Raced(e);
            }
        }
    }

    /** The core API's NotFoundException, or the kernel's EntityNotFoundException ("Unable to load NODE ...") anywhere in the causes. */
    static boolean vanished(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof NotFoundException || t.getClass().getSimpleName().equals("EntityNotFoundException")) return true;
        }
        return false;
    }

    /**
     * Every attempt met a record deleted under it. Neo4j reports a procedure's exception with the
     * exception's own status when it has one: `Neo.TransientError.Transaction.Outdated` ("may succeed
     * if retried"), which drivers retry, rather than `Neo.ClientError.Procedure.ProcedureCallFailed`.
     */
    static final class Raced extends RuntimeException implements Status.HasStatus {
        Raced(RuntimeException last) {
            super("Records this walk read were deleted by concurrent commits on each of its " + ATTEMPTS + " attempts; ask again", last);
        }

        @Override
        public Status status() {
            return Status.Transaction.Outdated;
        }
    }
}
