package graphauthz;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.neo4j.exceptions.KernelException;
import org.neo4j.graphdb.Label;
import org.neo4j.graphdb.Node;
import org.neo4j.graphdb.ResourceIterator;
import org.neo4j.graphdb.Transaction;
import org.neo4j.internal.kernel.api.IndexQueryConstraints;
import org.neo4j.internal.kernel.api.IndexReadSession;
import org.neo4j.internal.kernel.api.NodeCursor;
import org.neo4j.internal.kernel.api.NodeValueIndexCursor;
import org.neo4j.internal.kernel.api.PropertyIndexQuery;
import org.neo4j.internal.kernel.api.Read;
import org.neo4j.internal.kernel.api.SchemaRead;
import org.neo4j.internal.kernel.api.TokenWrite;
import org.neo4j.internal.kernel.api.Write;
import org.neo4j.internal.schema.IndexDescriptor;
import org.neo4j.internal.schema.IndexType;
import org.neo4j.internal.schema.SchemaDescriptors;
import org.neo4j.kernel.api.KernelTransaction;
import org.neo4j.internal.kernel.api.InternalIndexState;
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
    private static final Label IN_ENV = Label.label("InEnv");
    /** The link properties an export holds (src/areas/snapshots/format.ts refuses others), in the statement's order. */
    private static final String[] PROPERTIES = {"id", "role", "tenant", "relation", "created_at", "updated_at", "expires_at"};
    private static final long[] NONE = new long[0];

    @Context
    public Transaction tx;

    @Procedure(name = "graphauthz.importLinks", mode = Mode.WRITE)
    @Description("Creates the links $rows {type, from, to, props} between the records of environment $env, each end found by its id, with the count created.")
    public Stream<Created> importLinks(@Name("env") String env, @Name("rows") List<Map<String, Object>> rows) {
        KernelTransaction ktx = ((InternalTransaction) tx).kernelTransaction();
        long created = 0;
        try (Ends ends = new Ends(tx, env)) {
            Write write = ktx.dataWrite();
            TokenWrite tokens = ktx.tokenWrite();
            int[] keys = new int[PROPERTIES.length];
            for (int i = 0; i < keys.length; i++) keys[i] = tokens.propertyKeyGetOrCreateForName(PROPERTIES[i]);
            Map<String, Integer> types = new HashMap<>();
            for (Map<String, Object> row : rows) {
                String typeName = (String) row.get("type");
                long[] from = ends.of(row.get("from"));
                if (from.length == 0) continue;
                // A resource-group link starts at a group (docs/graph-model.md): the walk reads GROUPS edges only there.
                if ("GROUPS".equals(typeName)) from = ends.groups(from);
                long[] to = ends.of(row.get("to"));
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
            throw new ImportRecords.Refused(e); // its status kept, as for the records
        }
        return Stream.of(new Created(created));
    }

    /** The records of the environment by id, each looked up once a call (index in_env_id: env, id). */
    private static final class Ends implements AutoCloseable {
        private final Transaction tx;
        private final KernelTransaction ktx;
        private final Read read;
        private final String env;
        private final Map<Object, long[]> byId = new HashMap<>();
        private final int groupLabel;
        private final int envKey;
        private final int idKey;
        /** The index's reader; null: no such index online (the core API answers). */
        private final IndexReadSession session;
        private NodeValueIndexCursor found;
        private NodeCursor node;

        Ends(Transaction tx, String env) throws KernelException {
            this.tx = tx;
            this.ktx = ((InternalTransaction) tx).kernelTransaction();
            this.read = ktx.dataRead();
            this.env = env;
            var tokenRead = ktx.tokenRead();
            groupLabel = tokenRead.nodeLabel("Group");
            envKey = tokenRead.propertyKey("env");
            idKey = tokenRead.propertyKey("id");
            int label = tokenRead.nodeLabel(IN_ENV.name());
            IndexReadSession open = null;
            SchemaRead schema = ktx.schemaRead();
            if (label >= 0 && envKey >= 0 && idKey >= 0) {
                IndexDescriptor index = schema.index(SchemaDescriptors.forLabel(label, envKey, idKey), IndexType.RANGE);
                if (index != IndexDescriptor.NO_INDEX && schema.indexGetStateNonLocking(index) == InternalIndexState.ONLINE) {
                    open = read.indexReadSession(index);
                }
            }
            session = open;
        }

        /** The nodes of the environment with this id (none for a missing one). */
        long[] of(Object id) throws KernelException {
            if (id == null) return NONE;
            long[] known = byId.get(id);
            if (known != null) return known;
            long[] nodes = lookUp(id);
            byId.put(id, nodes);
            return nodes;
        }

        /** Those of `nodes` that are groups. */
        long[] groups(long[] nodes) {
            if (groupLabel < 0) return NONE;
            if (node == null) node = ktx.cursors().allocateNodeCursor(ktx.cursorContext(), ktx.memoryTracker());
            int n = 0;
            long[] out = new long[nodes.length];
            for (long id : nodes) {
                read.singleNode(id, node);
                if (node.next() && node.hasLabel(groupLabel)) out[n++] = id;
            }
            return n == nodes.length ? nodes : java.util.Arrays.copyOf(out, n);
        }

        private long[] lookUp(Object id) throws KernelException {
            if (session == null) {
                try (ResourceIterator<Node> nodes = tx.findNodes(IN_ENV, "env", env, "id", id)) {
                    return nodes.stream().mapToLong(Node::getId).toArray();
                }
            }
            if (found == null) found = ktx.cursors().allocateNodeValueIndexCursor(ktx.cursorContext(), ktx.memoryTracker());
            read.nodeIndexSeek(ktx.queryContext(), session, found, IndexQueryConstraints.unconstrained(),
                    PropertyIndexQuery.exact(envKey, env), PropertyIndexQuery.exact(idKey, id));
            long first = -1;
            long[] more = null;
            int n = 0;
            while (found.next()) {
                long ref = found.nodeReference();
                if (n == 0) first = ref;
                else {
                    if (more == null) more = new long[] {first, ref};
                    else {
                        more = java.util.Arrays.copyOf(more, more.length + 1);
                        more[more.length - 1] = ref;
                    }
                }
                n++;
            }
            if (n == 0) return NONE;
            return more == null ? new long[] {first} : more;
        }

        @Override
        public void close() {
            if (found != null) found.close();
            if (node != null) node.close();
        }
    }
}
