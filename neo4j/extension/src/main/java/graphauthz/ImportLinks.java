package graphauthz;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.neo4j.exceptions.KernelException;
import org.neo4j.graphdb.Label;
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
import org.neo4j.values.storable.Values;

/**
 * graphauthz.importLinks: the links of one batch of an import, as cypher/import/createRelationships.cypher
 * writes them and answers (same rows, same links and properties, same count), through the kernel's
 * API. Each end is found by its id in the environment (index in_env_id) once a batch, however many
 * links name it (a tenant, a group); the link is created and
 * its properties set by their tokens, resolved once a batch. A link whose end is missing, or a
 * GROUPS link that does not start at a group, is not created (the caller sees `created` short of
 * the rows it sent, and refuses the stream). Statement: cypher/import/createRelationshipsExt.cypher,
 * after graphauthz.holdImport; docs/walk-extension.md ("Writes").
 */
public final class ImportLinks {
    /** The index the ends are found by (cypher/migrations: in_env_id). */
    static final Reads.IndexKey IN_ENV_ID = new Reads.IndexKey(Label.label("InEnv"), "env", "id");
    /** The link properties an export holds (src/areas/snapshots/format.ts refuses others), in the statement's order. */
    private static final String[] PROPERTIES = {"id", "role", "tenant", "relation", "created_at", "updated_at", "expires_at"};

    @Context
    public Transaction tx;

    @Procedure(name = "graphauthz.importLinks", mode = Mode.WRITE)
    @Description("Creates the links $rows {type, from, to, props} between the records of environment $env, each end found by its id, with the count created.")
    public Stream<Created> importLinks(@Name("env") String env, @Name("rows") List<Map<String, Object>> rows) {
        KernelTransaction ktx = ((InternalTransaction) tx).kernelTransaction();
        long created = 0;
        try (Reads reads = new Reads(tx)) {
            Write write = ktx.dataWrite();
            TokenWrite tokens = ktx.tokenWrite();
            int[] keys = new int[PROPERTIES.length];
            for (int i = 0; i < keys.length; i++) keys[i] = tokens.propertyKeyGetOrCreateForName(PROPERTIES[i]);
            Map<String, Integer> types = new HashMap<>();
            // The records of the environment by id, each looked up once a batch.
            Map<Object, long[]> ends = new HashMap<>();
            for (Map<String, Object> row : rows) {
                String typeName = (String) row.get("type");
                long[] from = ends.computeIfAbsent(row.get("from"), id -> reads.findAll(IN_ENV_ID, env, id));
                // A resource-group link starts at a group (docs/graph-model.md): the walk reads GROUPS edges only there.
                if ("GROUPS".equals(typeName)) from = Arrays.stream(from).filter(a -> reads.hasLabel(a, "Group")).toArray();
                long[] to = ends.computeIfAbsent(row.get("to"), id -> reads.findAll(IN_ENV_ID, env, id));
                if (from.length == 0 || to.length == 0) continue;
                Integer type = types.get(typeName);
                if (type == null) {
                    type = tokens.relationshipTypeGetOrCreateForName(typeName);
                    types.put(typeName, type);
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> props = row.get("props") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
                for (long a : from) {
                    for (long b : to) {
                        long r = write.relationshipCreate(a, type, b);
                        for (int i = 0; i < keys.length; i++) {
                            Object v = props.get(PROPERTIES[i]);
                            // SET r.x = null sets nothing on a new link.
                            if (v != null) write.relationshipSetProperty(r, keys[i], Values.of(v));
                        }
                        created++;
                    }
                }
            }
        } catch (KernelException e) {
            throw new Refused(e);
        }
        return Stream.of(new Created(created));
    }
}
