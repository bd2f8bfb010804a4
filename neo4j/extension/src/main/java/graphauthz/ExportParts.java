package graphauthz;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.stream.Stream;

import org.neo4j.graphdb.Direction;
import org.neo4j.graphdb.Label;
import org.neo4j.graphdb.Lock;
import org.neo4j.graphdb.Node;
import org.neo4j.graphdb.Relationship;
import org.neo4j.graphdb.RelationshipType;
import org.neo4j.graphdb.ResourceIterator;
import org.neo4j.graphdb.Transaction;
import org.neo4j.procedure.Context;
import org.neo4j.procedure.Description;
import org.neo4j.procedure.Mode;
import org.neo4j.procedure.Name;
import org.neo4j.procedure.Procedure;

/**
 * graphauthz.exportParts: the records and links of an environment that cypher/export/nodes.cypher
 * and cypher/export/relationships.cypher read, in the calling query's transaction (an export that
 * holds its environment's writers, src/areas/snapshots/service.ts), as a few large strings instead
 * of one row a record: each row is a section ("nodes" or "relationships"), a part (lines joined by
 * "\n") and the count of its lines. A relationship line is the export's own line
 * ({"type":"relationship","rel":...,"from":...,"to":...,"props":{...}}); a node line is its labels
 * (a JSON list, without InEnv), a tab, and its properties (a JSON object), the service making the
 * export's line of it. The same records, labels, properties and links as the Cypher statements
 * (the same selection, the same properties left out), each value written as JSON.stringify writes
 * what the driver reads (an integral double as an integer, a non-finite one as null). A value of
 * another type (temporal, spatial) fails the call: the service reads the environment with Cypher
 * instead. Nothing is kept between calls.
 *
 * Exact at one revision: every write to an environment moves its revision (src/db/db.ts) in its own
 * transaction, taking the environment node's lock exclusively, and holds it until it commits. The
 * call takes that lock (shared) before it reads the revision and releases it only once every record
 * and link is read into memory: writes that produced a revision up to the one read have committed
 * (and are read, Neo4j reading committed data), later ones wait at their revision's bump, their
 * changes uncommitted and unseen. Released, the writers go on while the parts are answered. A read
 * longer than holdMs lets them go and answers one row, section "too_large", and no parts.
 */
public final class ExportParts {
    @Context
    public Transaction tx;

    public static final class Part {
        public String section;
        public String part;
        public long lines;
        /** The revision every part holds, and how long the environment's writers were held (ms). */
        public long revision;
        public long heldMs;

        Part(String section, String part, long lines) {
            this.section = section;
            this.part = part;
            this.lines = lines;
        }
    }

    /** cypher/export/nodes.cypher: each label and the properties its section requires. */
    private static final String[][] SECTIONS = {
        {"Resource", "key"},
        {"ResourceRole", "resource"},
        {"Relation", "resource", "key"},
        {"Derivation"},
        {"Role", "key"},
        {"ActionGroup", "resource", "key"},
        {"Tenant", "key"},
        {"User", "key"},
        {"Instance", "resource", "key"},
        {"ElementsConfig", "key"},
        {"OperationApproval", "config_id", "tenant"},
        {"ConditionSet", "key"},
        {"SetRule", "key"},
        {"ProxyConfig", "key"},
        {"UserInvite", "id"},
    };
    /** Properties the export leaves out (nodes.cypher sets them to null). */
    private static final Set<String> LEFT_OUT = Set.of("env", "_lock", "webhook_secret", "webhook_bearer_token", "webhook_seq");
    /** cypher/export/relationships.cypher: the link types, the labels of a link's start, those its end must not have. */
    private static final RelationshipType[] TYPES = types("HAS_ROLE", "HAS_TENANT_ROLE", "IN_TENANT", "RELATED", "GROUPS", "EXTENDS",
            "HAS_RELATION", "SUBJECT", "DERIVES", "OF_CONFIG", "REQUESTED_BY", "ON_INSTANCE", "REVIEWED_BY", "OF_RESOURCE", "NARROWS",
            "USER_SET", "RESOURCE_SET");
    private static final Label[] FROM = labels("Resource", "ResourceRole", "Relation", "Derivation", "Role", "Tenant", "User", "Instance",
            "ElementsConfig", "OperationApproval", "ConditionSet", "SetRule");
    private static final Label[] NOT_TO = labels("Session", "LoginCode", "WebhookDelivery", "AuditEvent", "DecisionLogBatch");
    private static final Label IN_ENV = Label.label("InEnv");
    /** Property names as JSON keys (`"name":`), written once. */
    private static final java.util.concurrent.ConcurrentHashMap<String, String> KEYS = new java.util.concurrent.ConcurrentHashMap<>();
    private static final Label ENVIRONMENT = Label.label("Environment");

    @Procedure(name = "graphauthz.exportParts", mode = Mode.READ)
    @Description("The records and links of an environment an export holds, read at one revision under its writers' lock, as parts of lines (src/areas/snapshots/service.ts).")
    public Stream<Part> exportParts(@Name("env") String env, @Name("partChars") long partChars, @Name("holdMs") long holdMs) {
        int size = (int) Math.max(1024, Math.min(partChars, 64L * 1024 * 1024));
        Node environment = tx.findNode(ENVIRONMENT, "id", env);
        if (environment == null) return Stream.empty();
        final class Parts implements Iterator<Part> {
            /** The next section of records to read (SECTIONS), then the links. */
            private int section = 0;
            private ResourceIterator<Node> nodes;
            private boolean linking = false;
            private boolean linksStarted = false;
            private Part next;

            @Override
            public boolean hasNext() {
                if (next == null) next = fill();
                return next != null;
            }

            @Override
            public Part next() {
                if (!hasNext()) throw new NoSuchElementException();
                Part p = next;
                next = null;
                return p;
            }

            /** A link's end: its id as JSON, or null when the export leaves the link out; read once a node. */
            private final Map<Long, String> ends = new java.util.HashMap<>();
            /** Each link type's line up to its start's id. */
            private final Map<String, String> RELS = new java.util.HashMap<>();

            private String endOf(Node b) {
                return ends.computeIfAbsent(b.getId(), id -> {
                    if (!env.equals(b.getProperty("env", null)) || hasAny(b, NOT_TO)) return null;
                    StringBuilder json = new StringBuilder();
                    value(json, b.getProperty("id", null));
                    return json.toString();
                });
            }

            void close() {
                if (nodes != null) nodes.close();
                nodes = null;
            }

            /** The next part: lines of one section, about `size` characters. */
            private Part fill() {
                StringBuilder out = new StringBuilder(size + 4096);
                long lines = 0;
                if (!linking) {
                    while (out.length() < size) {
                        if (nodes == null) {
                            if (section == SECTIONS.length) break;
                            nodes = tx.findNodes(Label.label(SECTIONS[section][0]), "env", env);
                            section++;
                        }
                        if (!nodes.hasNext()) {
                            close();
                            continue;
                        }
                        Node n = nodes.next();
                        String[] sec = SECTIONS[section - 1];
                        boolean whole = true;
                        for (int i = 1; i < sec.length && whole; i++) whole = n.hasProperty(sec[i]);
                        if (!whole) continue;
                        if (lines > 0) out.append('\n');
                        nodeLine(out, n);
                        lines++;
                    }
                    if (nodes == null && section == SECTIONS.length) linking = true;
                    if (lines > 0) return new Part("nodes", out.toString(), lines);
                }
                if (!linksStarted) {
                    linksStarted = true;
                    nodes = tx.findNodes(IN_ENV, "env", env);
                }
                while (nodes != null && out.length() < size) {
                    if (!nodes.hasNext()) {
                        close();
                        break;
                    }
                    Node n = nodes.next();
                    if (!hasAny(n, FROM)) continue;
                    String from = null;
                    for (Relationship r : n.getRelationships(Direction.OUTGOING, TYPES)) {
                        String to = endOf(r.getEndNode());
                        if (to == null) continue;
                        if (from == null) {
                            StringBuilder json = new StringBuilder();
                            value(json, n.getProperty("id", null));
                            from = json.toString();
                        }
                        if (lines > 0) out.append('\n');
                        out.append(RELS.computeIfAbsent(r.getType().name(), t -> {
                            StringBuilder rel = new StringBuilder("{\"type\":\"relationship\",\"rel\":");
                            string(rel, t);
                            return rel.append(",\"from\":").toString();
                        }));
                        out.append(from);
                        out.append(",\"to\":");
                        out.append(to);
                        out.append(",\"props\":");
                        props(out, r.getAllProperties(), false);
                        out.append('}');
                        lines++;
                    }
                }
                return lines > 0 ? new Part("relationships", out.toString(), lines) : null;
            }
        }
        // Writers of the environment wait from here (each takes this lock, exclusively, to move the revision).
        long started = System.nanoTime();
        Lock lock = tx.acquireReadLock(environment);
        List<Part> read = new ArrayList<>();
        long revision;
        Parts parts = new Parts();
        try {
            revision = ((Number) environment.getProperty("revision", 0L)).longValue();
            while (parts.hasNext()) {
                read.add(parts.next());
                if (System.nanoTime() - started > holdMs * 1_000_000L) {
                    // Not read within the bound: the writers go on, and the service exports otherwise.
                    read.clear();
                    read.add(new Part("too_large", "", 0));
                    break;
                }
            }
            if (read.isEmpty()) read.add(new Part("none", "", 0));
        } finally {
            parts.close();
            lock.release();
        }
        // The writers go on; the parts are answered from memory.
        long heldMs = (System.nanoTime() - started) / 1_000_000L;
        for (Part p : read) {
            p.revision = revision;
            p.heldMs = heldMs;
        }
        return read.stream();
    }

    private static void nodeLine(StringBuilder out, Node n) {
        out.append('[');
        boolean first = true;
        for (Label l : n.getLabels()) {
            if (l.name().equals("InEnv")) continue;
            if (!first) out.append(',');
            first = false;
            string(out, l.name());
        }
        out.append("]\t");
        props(out, n.getAllProperties(), true);
    }

    private static void props(StringBuilder out, Map<String, Object> props, boolean node) {
        out.append('{');
        boolean first = true;
        for (Map.Entry<String, Object> e : props.entrySet()) {
            if (e.getValue() == null || (node && LEFT_OUT.contains(e.getKey()))) continue;
            if (!first) out.append(',');
            first = false;
            out.append(KEYS.computeIfAbsent(e.getKey(), k -> {
                StringBuilder key = new StringBuilder();
                string(key, k);
                return key.append(':').toString();
            }));
            value(out, e.getValue());
        }
        out.append('}');
    }

    private static void value(StringBuilder out, Object v) {
        if (v == null) out.append("null");
        else if (v instanceof String s) string(out, s);
        else if (v instanceof Boolean b) out.append(b.booleanValue());
        else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) out.append(((Number) v).longValue());
        else if (v instanceof Double || v instanceof Float) number(out, ((Number) v).doubleValue());
        else if (v instanceof Character c) string(out, String.valueOf(c));
        else if (v.getClass().isArray()) {
            out.append('[');
            int len = Array.getLength(v);
            for (int i = 0; i < len; i++) {
                if (i > 0) out.append(',');
                value(out, Array.get(v, i));
            }
            out.append(']');
        } else {
            throw new IllegalArgumentException("graphauthz.exportParts: a property of type " + v.getClass().getSimpleName()
                    + " is not one an export writes");
        }
    }

    /** A double as JSON.stringify writes the number the driver reads: integral ones as integers, non-finite ones as null. */
    private static void number(StringBuilder out, double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) out.append("null");
        else if (d == Math.rint(d) && Math.abs(d) < 1e15) out.append((long) d);
        else out.append(Double.toString(d));
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** A string as JSON.stringify writes it (control characters and lone surrogates escaped). */
    static void string(StringBuilder out, String s) {
        out.append('"');
        if (plain(s)) {
            out.append(s).append('"');
            return;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    boolean lone = Character.isHighSurrogate(c)
                            ? !(i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1)))
                            : Character.isLowSurrogate(c) && !(i > 0 && Character.isHighSurrogate(s.charAt(i - 1)));
                    if (c < 0x20 || lone) {
                        out.append("\\u").append(HEX[(c >> 12) & 15]).append(HEX[(c >> 8) & 15]).append(HEX[(c >> 4) & 15]).append(HEX[c & 15]);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** Whether a string is written as it is (nothing to escape): most are. */
    private static boolean plain(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == '"' || c == '\\' || Character.isSurrogate(c)) return false;
        }
        return true;
    }

    private static boolean hasAny(Node n, Label[] labels) {
        for (Label l : labels) if (n.hasLabel(l)) return true;
        return false;
    }

    private static RelationshipType[] types(String... names) {
        List<RelationshipType> out = new ArrayList<>();
        for (String n : names) out.add(RelationshipType.withName(n));
        return out.toArray(new RelationshipType[0]);
    }

    private static Label[] labels(String... names) {
        Label[] out = new Label[names.length];
        for (int i = 0; i < names.length; i++) out[i] = Label.label(names[i]);
        return out;
    }
}
