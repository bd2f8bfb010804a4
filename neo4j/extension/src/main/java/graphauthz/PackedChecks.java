package graphauthz;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The questions of graphauthz.allowed packed into one string, as src/areas/decisions/packedChecks.ts
 * writes them: for each question, its user, action, type, key and tenant, each `<length>:<text>`
 * (the length in UTF-16 code units, as Java and JavaScript count a string) or `~` for null, then
 * `1` when it asks for what the set rules read (`stored: true`) or `0`.
 */
final class PackedChecks {
    private static final String[] FIELDS = { "user", "action", "type", "key", "tenant" };

    private PackedChecks() {}

    /** A list of maps as it is; a packed string as the same list of maps. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> of(Object checks) {
        if (checks == null) return null;
        if (checks instanceof String packed) return unpack(packed);
        if (checks instanceof List<?> list) return (List<Map<String, Object>>) list;
        throw new IllegalArgumentException("graphauthz.allowed: checks must be a list of maps or a packed string");
    }

    static List<Map<String, Object>> unpack(String packed) {
        List<Map<String, Object>> out = new ArrayList<>();
        int at = 0;
        int n = packed.length();
        while (at < n) {
            Map<String, Object> check = new HashMap<>(8);
            for (String field : FIELDS) {
                if (at >= n) throw malformed(at);
                if (packed.charAt(at) == '~') {
                    check.put(field, null);
                    at++;
                    continue;
                }
                int colon = packed.indexOf(':', at);
                if (colon < 0) throw malformed(at);
                int length;
                try {
                    length = Integer.parseInt(packed, at, colon, 10);
                } catch (NumberFormatException e) {
                    throw malformed(at);
                }
                int end = colon + 1 + length;
                if (length < 0 || end > n) throw malformed(at);
                check.put(field, packed.substring(colon + 1, end));
                at = end;
            }
            if (at >= n) throw malformed(at);
            char stored = packed.charAt(at++);
            if (stored == '1') check.put("stored", Boolean.TRUE);
            else if (stored != '0') throw malformed(at - 1);
            out.add(check);
        }
        return out;
    }

    private static IllegalArgumentException malformed(int at) {
        return new IllegalArgumentException("graphauthz.allowed: packed checks malformed at character " + at);
    }
}
