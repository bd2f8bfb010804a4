package graphauthz;

import java.util.Comparator;
import java.util.Map;

/**
 * Cypher's ORDER BY on strings, for the rule tables (RuleTables): by Unicode code point, nulls last.
 * The fragments sort with ORDER BY, the extension with these, so both list a table in one order.
 */
final class Order {
    private Order() {}

    static int compareText(String a, String b) {
        if (a == null || b == null) return a == null ? (b == null ? 0 : 1) : -1;
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) return Integer.compare(ca, cb);
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    /** Rows ordered by the text of each field in turn. */
    static Comparator<Map<String, Object>> byFields(String... fields) {
        return (x, y) -> {
            for (String f : fields) {
                Object a = x.get(f);
                Object b = y.get(f);
                int c = compareText(a instanceof String s ? s : null, b instanceof String s ? s : null);
                if (c != 0) return c;
            }
            return 0;
        };
    }
}
