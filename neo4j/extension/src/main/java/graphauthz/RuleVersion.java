package graphauthz;

import org.neo4j.procedure.Description;
import org.neo4j.procedure.UserFunction;

/**
 * The version of the rule this jar implements. The service (src/db/walkSelection.ts, RULE_VERSION)
 * uses the extension only when this answers exactly its own version; otherwise the Cypher walk
 * answers. Bump both together whenever the rule (docs/graph-model.md, "Decisions") or what the service
 * sends the procedures changes (6: graphauthz.allowed takes its checks packed into one string; 7:
 * graphauthz.listObjects answers its page packed into one string; 8: the instance role
 * assignments and the tuples written by graphauthz.assignInstanceRoles and graphauthz.createTuples;
 * 9: the batches of an import share the environment's lock through graphauthz.holdImport; 10: an import's records and links written by
 * graphauthz.importRecords and graphauthz.importLinks).
 */
public final class RuleVersion {
    public static final String VERSION = "10";

    @UserFunction(name = "graphauthz.ruleVersion")
    @Description("The version of the permission rule the graphauthz walk implements.")
    public String ruleVersion() {
        return VERSION;
    }
}
