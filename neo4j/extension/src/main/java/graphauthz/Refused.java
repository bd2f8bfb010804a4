package graphauthz;

import org.neo4j.exceptions.KernelException;
import org.neo4j.kernel.api.exceptions.Status;

/**
 * A kernel refusal in a write procedure, with its status kept (Neo4j reports a procedure's exception
 * with the status it carries): a unique constraint's is Neo.ClientError.Schema.ConstraintValidationFailed,
 * which the service answers as a conflict (ImportRecords, ImportLinks).
 */
final class Refused extends RuntimeException implements Status.HasStatus {
    private final Status status;

    Refused(KernelException e) {
        super(e.getMessage(), e);
        this.status = e.status();
    }

    @Override
    public Status status() {
        return status;
    }
}
