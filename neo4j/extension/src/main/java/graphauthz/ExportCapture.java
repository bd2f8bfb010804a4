package graphauthz;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.graphdb.Entity;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.graphdb.Label;
import org.neo4j.graphdb.Node;
import org.neo4j.graphdb.Relationship;
import org.neo4j.graphdb.Transaction;
import org.neo4j.graphdb.event.LabelEntry;
import org.neo4j.graphdb.event.PropertyEntry;
import org.neo4j.graphdb.event.TransactionData;
import org.neo4j.graphdb.event.TransactionEventListener;
import org.neo4j.kernel.internal.GraphDatabaseAPI;

/**
 * What an export (ExportParts) needs to read its environment at one revision R without holding its
 * writers while it reads: from the moment R is read until the export ends, every transaction of the
 * database that commits tells this capture, before it commits (a transaction event listener's
 * beforeCommit, run while the writer still holds its locks and before its changes are applied), the
 * state each record and link it changes had before it: its labels (a link: its type and ends) and
 * properties, or that it did not exist. Only the first change of each counts: that is its state at R.
 * The nodes whose links a transaction creates or deletes are noted too (reading their links while
 * the links change is not trusted: they are read again under the lock at the end).
 *
 * So a record or link the export reads and then finds unchanged here was read as it was at R (its
 * change would have been noted before it became visible); one found changed is taken from here.
 *
 * The listener is registered only while an export captures (every commit of the database pays for
 * a TransactionData while one is registered). It never fails a commit: anything it cannot note
 * marks the capture failed, and that export reads its environment with its writers held instead.
 */
final class ExportCapture {
    /** A record's state at R; {@link #ABSENT} when it did not exist then. */
    static final class NodeImage {
        final boolean existed;
        final Set<String> labels;
        final Map<String, Object> props;

        NodeImage(boolean existed, Set<String> labels, Map<String, Object> props) {
            this.existed = existed;
            this.labels = labels;
            this.props = props;
        }
    }

    /** A link's state at R. */
    static final class RelImage {
        final boolean existed;
        final String type;
        final long start;
        final long end;
        final Map<String, Object> props;

        RelImage(boolean existed, String type, long start, long end, Map<String, Object> props) {
            this.existed = existed;
            this.type = type;
            this.start = start;
            this.end = end;
            this.props = props;
        }
    }

    static final NodeImage ABSENT = new NodeImage(false, Set.of(), Map.of());
    static final RelImage ABSENT_REL = new RelImage(false, "", -1, -1, Map.of());
    /** An environment not known (a node touched by links whose environments differ or are not known). */
    private static final Object UNKNOWN = new Object();
    /** More changes than this during one export: the capture gives up (the export holds its writers instead). */
    static final int MAX_CHANGES = 1_000_000;

    final String env;
    final ConcurrentHashMap<Long, NodeImage> nodes = new ConcurrentHashMap<>();
    final ConcurrentHashMap<Long, RelImage> rels = new ConcurrentHashMap<>();
    /** Nodes one of whose links was created or deleted after R. */
    final Set<Long> touched = ConcurrentHashMap.newKeySet();
    volatile String failure;
    private final String database;

    private ExportCapture(String database, String env) {
        this.database = database;
        this.env = env;
    }

    /**
     * A capture nothing reaches (never registered): for a read made while the environment's lock
     * is held, when no writer of it commits.
     */
    static ExportCapture unchanging(String env) {
        return new ExportCapture("", env);
    }

    /** Whether this record, or its set of links, changed after R (checked after reading it). */
    boolean changed(long node) {
        return nodes.containsKey(node) || touched.contains(node);
    }

    // ---- the registry: captures by database, the listener registered while any is open ----

    private static final Map<String, List<ExportCapture>> OPEN = new HashMap<>();
    private static final Map<String, CopyOnWriteArrayList<ExportCapture>> ACTIVE = new ConcurrentHashMap<>();
    private static final Listener LISTENER = new Listener();

    /**
     * Opens a capture of `env` (call it holding the environment's lock, so that no writer of it is
     * committing): every transaction that commits from now on tells it what it changes.
     */
    static synchronized ExportCapture open(GraphDatabaseService db, String env) {
        ExportCapture capture = new ExportCapture(db.databaseName(), env);
        List<ExportCapture> open = OPEN.computeIfAbsent(capture.database, d -> new ArrayList<>());
        if (open.isEmpty()) {
            try {
                managementOf(db).registerTransactionEventListener(capture.database, LISTENER);
            } catch (RuntimeException | LinkageError e) {
                capture.failure = "the change listener could not be registered: " + e;
                return capture;
            }
        }
        open.add(capture);
        ACTIVE.computeIfAbsent(capture.database, d -> new CopyOnWriteArrayList<>()).add(capture);
        return capture;
    }

    /** Ends this capture; the last one of its database unregisters the listener. */
    synchronized void close(GraphDatabaseService db) {
        synchronized (ExportCapture.class) {
            List<ExportCapture> open = OPEN.get(database);
            if (open == null || !open.remove(this)) return;
            CopyOnWriteArrayList<ExportCapture> active = ACTIVE.get(database);
            if (active != null) active.remove(this);
            if (open.isEmpty()) {
                try {
                    managementOf(db).unregisterTransactionEventListener(database, LISTENER);
                } catch (RuntimeException e) {
                    // Already gone with its database: nothing to unregister.
                }
            }
        }
    }

    private static DatabaseManagementService managementOf(GraphDatabaseService db) {
        return ((GraphDatabaseAPI) db).getDependencyResolver().resolveDependency(DatabaseManagementService.class);
    }

    /** Notes, for every open capture of the database, the state at R of what `data` changes. */
    private static final class Listener implements TransactionEventListener<Object> {
        @Override
        public Object beforeCommit(TransactionData data, Transaction transaction, GraphDatabaseService db) {
            List<ExportCapture> active = ACTIVE.get(db.databaseName());
            if (active == null || active.isEmpty()) return null;
            try {
                Changes changes = new Changes(data);
                for (ExportCapture c : active) changes.noteIn(c);
            } catch (Throwable t) {
                // Never fail a writer's commit: the exports that could not note it hold their writers instead.
                for (ExportCapture c : active) c.failure = "a change could not be noted: " + t;
            }
            return null;
        }

        @Override
        public void afterCommit(TransactionData data, Object state, GraphDatabaseService db) {}

        @Override
        public void afterRollback(TransactionData data, Object state, GraphDatabaseService db) {}
    }

    /** One transaction's changes, as the state before it of each record and link it touches. */
    private static final class Changes {
        final Map<Long, NodeImage> nodes = new HashMap<>();
        final Map<Long, RelImage> rels = new HashMap<>();
        final Set<Long> touched = new HashSet<>();
        /** Each node's `env` (before the transaction, or as created), to note it only for its environment's exports. */
        final Map<Long, Object> envOf = new HashMap<>();
        /** Each link's environment (its start's), and that of each touched node (the link's): null when not known. */
        final Map<Long, Object> relEnv = new HashMap<>();
        final Map<Long, Object> touchedEnv = new HashMap<>();

        Changes(TransactionData data) {
            Set<Long> createdNodes = new HashSet<>();
            for (Node n : data.createdNodes()) {
                createdNodes.add(n.getId());
                nodes.put(n.getId(), ABSENT);
                envOf.put(n.getId(), n.getProperty("env", null));
            }
            Set<Long> deletedNodes = new HashSet<>();
            for (Node n : data.deletedNodes()) deletedNodes.add(n.getId());

            // Records: the properties and labels before, from the entries (a deleted record's are all there, as removed).
            Map<Long, Map<String, Object>> before = new HashMap<>();
            Map<Long, Set<String>> labelsBefore = new HashMap<>();
            // Every record changed here (not created here), by id: deleted ones, and those with an entry.
            Map<Long, Node> changed = new HashMap<>();
            for (Node n : data.deletedNodes()) changed.put(n.getId(), n);
            for (PropertyEntry<Node> e : data.assignedNodeProperties()) changed.putIfAbsent(e.entity().getId(), e.entity());
            for (PropertyEntry<Node> e : data.removedNodeProperties()) changed.putIfAbsent(e.entity().getId(), e.entity());
            for (LabelEntry e : data.assignedLabels()) changed.putIfAbsent(e.node().getId(), e.node());
            for (LabelEntry e : data.removedLabels()) changed.putIfAbsent(e.node().getId(), e.node());
            changed.keySet().removeAll(createdNodes);
            Set<Long> changedNodes = changed.keySet();
            for (Map.Entry<Long, Node> c : changed.entrySet()) {
                long id = c.getKey();
                if (deletedNodes.contains(id)) {
                    before.put(id, new HashMap<>());
                    labelsBefore.put(id, new HashSet<>());
                    continue;
                }
                // Its state now (in this transaction), turned back below by the entries.
                Node n = c.getValue();
                before.put(id, new HashMap<>(n.getAllProperties()));
                Set<String> labels = new HashSet<>();
                for (Label l : n.getLabels()) labels.add(l.name());
                labelsBefore.put(id, labels);
            }
            turnBack(before, data.assignedNodeProperties(), data.removedNodeProperties());
            for (LabelEntry e : data.assignedLabels()) {
                Set<String> labels = labelsBefore.get(e.node().getId());
                if (labels != null && !deletedNodes.contains(e.node().getId())) labels.remove(e.label().name());
            }
            for (LabelEntry e : data.removedLabels()) {
                Set<String> labels = labelsBefore.get(e.node().getId());
                if (labels != null) labels.add(e.label().name());
            }
            for (long id : changedNodes) {
                Map<String, Object> props = before.get(id);
                nodes.put(id, new NodeImage(true, labelsBefore.get(id), props));
                envOf.put(id, props.get("env"));
            }

            // Links: created ones did not exist; a deleted or changed one's type, ends and properties before.
            for (Relationship r : data.createdRelationships()) {
                rels.put(r.getId(), ABSENT_REL);
                Object env = startEnv(r.getStartNode(), deletedNodes);
                relEnv.put(r.getId(), env);
                touch(r.getStartNode().getId(), env);
                touch(r.getEndNode().getId(), env);
            }
            Set<Long> deletedRels = new HashSet<>();
            for (Relationship r : data.deletedRelationships()) deletedRels.add(r.getId());
            Map<Long, Relationship> changedRels = new HashMap<>();
            for (Relationship r : data.deletedRelationships()) changedRels.put(r.getId(), r);
            for (PropertyEntry<Relationship> e : data.assignedRelationshipProperties()) changedRels.putIfAbsent(e.entity().getId(), e.entity());
            for (PropertyEntry<Relationship> e : data.removedRelationshipProperties()) changedRels.putIfAbsent(e.entity().getId(), e.entity());
            Map<Long, Map<String, Object>> relBefore = new HashMap<>();
            for (Map.Entry<Long, Relationship> e : changedRels.entrySet()) {
                if (rels.containsKey(e.getKey())) continue; // created here
                relBefore.put(e.getKey(), deletedRels.contains(e.getKey()) ? new HashMap<>() : new HashMap<>(e.getValue().getAllProperties()));
            }
            turnBack(relBefore, data.assignedRelationshipProperties(), data.removedRelationshipProperties());
            for (Map.Entry<Long, Map<String, Object>> e : relBefore.entrySet()) {
                Relationship r = changedRels.get(e.getKey());
                long start = r.getStartNode().getId();
                long end = r.getEndNode().getId();
                rels.put(e.getKey(), new RelImage(true, r.getType().name(), start, end, e.getValue()));
                Object env = startEnv(r.getStartNode(), deletedNodes);
                relEnv.put(e.getKey(), env);
                if (deletedRels.contains(e.getKey())) {
                    touch(start, env);
                    touch(end, env);
                }
            }
        }

        /**
         * Properties as they were before the transaction: each entry's previously committed value
         * put back (null: the property did not exist). `before` holds, by id, the properties now
         * (a deleted entity: none, all its properties being entries as removed); an id it lacks
         * (created here) is skipped.
         */
        private static <E extends Entity> void turnBack(
                Map<Long, Map<String, Object>> before, Iterable<PropertyEntry<E>> assigned, Iterable<PropertyEntry<E>> removed) {
            for (PropertyEntry<E> e : assigned) {
                Map<String, Object> props = before.get(e.entity().getId());
                if (props == null) continue;
                Object was = e.previouslyCommittedValue();
                if (was == null) props.remove(e.key());
                else props.put(e.key(), was);
            }
            for (PropertyEntry<E> e : removed) {
                Map<String, Object> props = before.get(e.entity().getId());
                if (props == null) continue;
                Object was = e.previouslyCommittedValue();
                if (was != null) props.put(e.key(), was);
            }
        }

        private void touch(long node, Object env) {
            touched.add(node);
            // A node touched by links of two environments (none: links stay within one) is noted for both.
            touchedEnv.merge(node, env == null ? UNKNOWN : env, (a, b) -> a.equals(b) ? a : UNKNOWN);
        }

        /** A link's environment: its start's (before this transaction when the start is deleted in it), null if unknown. */
        private Object startEnv(Node start, Set<Long> deletedNodes) {
            long id = start.getId();
            if (envOf.containsKey(id)) return envOf.get(id);
            if (deletedNodes.contains(id)) return null;
            try {
                return start.getProperty("env", null);
            } catch (RuntimeException e) {
                return null;
            }
        }

        private static boolean other(Object env, ExportCapture c) {
            return env != null && env != UNKNOWN && !c.env.equals(env);
        }

        /** Into one capture: what belongs to its environment (or to none known), each only if unchanged so far. */
        void noteIn(ExportCapture c) {
            for (Map.Entry<Long, NodeImage> e : nodes.entrySet()) {
                if (other(envOf.get(e.getKey()), c)) continue;
                c.nodes.putIfAbsent(e.getKey(), e.getValue());
            }
            for (Map.Entry<Long, RelImage> e : rels.entrySet()) {
                if (other(relEnv.get(e.getKey()), c)) continue;
                c.rels.putIfAbsent(e.getKey(), e.getValue());
            }
            for (long node : touched) {
                if (!other(touchedEnv.get(node), c)) c.touched.add(node);
            }
            if (c.nodes.size() + c.rels.size() > MAX_CHANGES) c.failure = "more than " + MAX_CHANGES + " changes during the export";
        }
    }
}
