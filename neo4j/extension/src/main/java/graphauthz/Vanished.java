package graphauthz;

import java.util.function.Supplier;

import org.neo4j.graphdb.NotFoundException;

/**
 * A walk reads committed state without locks: a record or edge it found may be deleted by a commit
 * before it reads it (an instance removed while a check reads it: a denied or cancelled operation
 * approval removes the instance it made). The core API then throws NotFoundException, caused by the
 * kernel's EntityNotFoundException ("Unable to load NODE ..."). The read procedures ask again
 * instead of failing: a new attempt, in the same transaction, no longer finds what was deleted. At
 * most ATTEMPTS attempts (each after a commit that deleted something the previous one read).
 */
final class Vanished {
    static final int ATTEMPTS = 5;

    private Vanished() {}

    static <T> T retry(Supplier<T> call) {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.get();
            } catch (RuntimeException e) {
                if (attempt >= ATTEMPTS || !vanished(e)) throw e;
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
}
