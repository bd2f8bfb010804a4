package graphauthz;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The repository's Cypher fragments (cypher/fragments/, packaged into the jar by neo4j/extension/pom.xml),
 * with their `// #include fragments/<name>` lines expanded as src/db/cypherRegistry.ts does. The
 * extension reads the environment's rule tables (derivations, role hierarchy, the roles that act on a
 * type) with the very text the Cypher walk reads them with, so both walks see them in the same order;
 * the walk itself is Java (Walk).
 */
final class Fragments {
    private static final Pattern INCLUDE = Pattern.compile("(?m)^[ \\t]*//[ \\t]*#include[ \\t]+(\\S+)[ \\t]*$");
    private static final ConcurrentHashMap<String, String> EXPANDED = new ConcurrentHashMap<>();

    private Fragments() {}

    /** The text of fragments/<name> with its includes expanded. */
    static String text(String name) {
        return EXPANDED.computeIfAbsent(name, n -> expand(n, new ArrayDeque<>()));
    }

    private static String expand(String name, Deque<String> stack) {
        if (stack.contains(name)) throw new IllegalStateException("circular #include of " + name);
        stack.push(name);
        String raw = read(name);
        Matcher m = INCLUDE.matcher(raw);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String included = m.group(1);
            if (!included.startsWith("fragments/")) throw new IllegalStateException("bad #include " + included);
            m.appendReplacement(out, Matcher.quoteReplacement(expand(included.substring("fragments/".length()), stack)));
        }
        m.appendTail(out);
        stack.pop();
        return out.toString();
    }

    private static String read(String name) {
        try (InputStream in = Fragments.class.getResourceAsStream("/fragments/" + name + ".cypher")) {
            if (in == null) throw new IllegalStateException("fragment " + name + " is not in the jar");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read fragment " + name, e);
        }
    }
}
