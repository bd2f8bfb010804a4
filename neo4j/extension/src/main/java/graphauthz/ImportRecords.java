package graphauthz;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.neo4j.exceptions.KernelException;
import org.neo4j.graphdb.Transaction;
import org.neo4j.internal.kernel.api.TokenWrite;
import org.neo4j.internal.kernel.api.Write;
import org.neo4j.kernel.api.KernelTransaction;
import org.neo4j.kernel.impl.coreapi.InternalTransaction;
import org.neo4j.procedure.Context;
import org.neo4j.procedure.Description;
import org.neo4j.procedure.Mode;
import org.neo4j.procedure.Name;
import org.neo4j.procedure.Procedure;
import org.neo4j.values.storable.Value;
import org.neo4j.values.storable.Values;

/**
 * graphauthz.importRecords: the records of one batch of an import, as cypher/import/createNodes.cypher
 * writes them and answers: each row `{labels, props}` a new node with those labels, its properties
 * (none null: the service drops nulls) and `env`, and the count created. Through the kernel's API,
 * the tokens resolved once a batch, where the statement interprets `CREATE (n:$(row.labels)) SET n =
 * row.props` row by row. A record whose key another holds fails the call on its label's unique
 * constraint with Neo4j's own status (Neo.ClientError.Schema.ConstraintValidationFailed), as the
 * statement does. Statement: cypher/import/createNodesExt.cypher, after graphauthz.holdImport;
 * docs/walk-extension.md ("Writes").
 */
public final class ImportRecords {
    @Context
    public Transaction tx;

    @Procedure(name = "graphauthz.importRecords", mode = Mode.WRITE)
    @Description("Creates the records $rows {labels, props} in environment $env, with the count created.")
    public Stream<Created> importRecords(@Name("env") String env, @Name("rows") List<Map<String, Object>> rows) {
        KernelTransaction ktx = ((InternalTransaction) tx).kernelTransaction();
        long created = 0;
        try {
            Write write = ktx.dataWrite();
            TokenWrite tokens = ktx.tokenWrite();
            Map<String, Integer> labels = new HashMap<>();
            Map<String, Integer> keys = new HashMap<>();
            int envKey = tokens.propertyKeyGetOrCreateForName("env");
            Value envValue = Values.stringValue(env);
            for (Map<String, Object> row : rows) {
                @SuppressWarnings("unchecked")
                List<String> names = (List<String>) row.get("labels");
                int[] ids = new int[names.size()];
                for (int i = 0; i < ids.length; i++) {
                    String name = names.get(i);
                    Integer id = labels.get(name);
                    if (id == null) {
                        id = tokens.labelGetOrCreateForName(name);
                        labels.put(name, id);
                    }
                    ids[i] = id;
                }
                long node = write.nodeCreateWithLabels(ids);
                if (row.get("props") instanceof Map<?, ?> props) {
                    for (Map.Entry<?, ?> p : props.entrySet()) {
                        if (p.getValue() == null) continue;
                        String name = (String) p.getKey();
                        Integer key = keys.get(name);
                        if (key == null) {
                            key = tokens.propertyKeyGetOrCreateForName(name);
                            keys.put(name, key);
                        }
                        // SET n = row.props, n.env = $env: an `env` in the props is the import's.
                        if (key != envKey) write.nodeSetProperty(node, key, stored(p.getValue()));
                    }
                }
                write.nodeSetProperty(node, envKey, envValue);
                created++;
            }
        } catch (KernelException e) {
            throw new Refused(e);
        }
        return Stream.of(new Created(created));
    }

    /** A property value as Cypher's SET stores it: a list as an array of its one type. */
    private static Value stored(Object v) {
        if (v instanceof List<?> list) {
            if (list.isEmpty() || list.get(0) instanceof String) return Values.stringArray(list.toArray(new String[0]));
            if (list.stream().allMatch(x -> x instanceof Long)) return Values.longArray(list.stream().mapToLong(x -> (Long) x).toArray());
            if (list.stream().allMatch(x -> x instanceof Number)) return Values.doubleArray(list.stream().mapToDouble(x -> ((Number) x).doubleValue()).toArray());
            if (list.get(0) instanceof Boolean) {
                boolean[] out = new boolean[list.size()];
                for (int i = 0; i < out.length; i++) out[i] = (Boolean) list.get(i);
                return Values.booleanArray(out);
            }
        }
        return Values.of(v);
    }
}
