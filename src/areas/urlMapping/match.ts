/**
 * Permit's URL-mapping rules as its PDP applies them at `/allowed_url` (docs/behaviour.md section 24):
 * a rule matches a request when its HTTP method is the request's (any case) and its URL matches
 * the request's URL; of the matching rules the highest `priority` wins (none counts as 0; on a tie,
 * the first in order: the oldest proxy config's, in its list's order).
 *
 * A rule's URL matches when, split at the first `?`, the parts before it split by `/` have as many
 * segments as the request's and each is equal or a `{name}` placeholder; and, when the rule has a
 * query string, the request has one holding each of the rule's parameters, with the same value or
 * any value for a `{name}` one (a rule without a query string matches whatever query the request has).
 * The placeholders' values are the resource's attributes.
 */
export interface MappingRule {
  url: string;
  url_type?: 'regex' | null;
  http_method: string;
  resource: string;
  headers?: Record<string, string>;
  action?: string | null;
  priority?: number | null;
}

const isPlaceholder = (part: string) => part.startsWith('{') && part.endsWith('}');

/** A query string's parameters, the last value of a repeated one (as Starlette's QueryParams reads them). */
function queryParams(query: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(query)) out.set(k, v);
  return out;
}

function pathMatches(rulePath: string, requestPath: string): boolean {
  const ruleParts = rulePath.split('/');
  const requestParts = requestPath.split('/');
  return ruleParts.length === requestParts.length && ruleParts.every((p, i) => isPlaceholder(p) || p === requestParts[i]);
}

function queryMatches(ruleQuery: string, requestQuery: string): boolean {
  const rule = queryParams(ruleQuery);
  const request = queryParams(requestQuery);
  for (const [k, v] of rule) {
    if (!request.has(k)) return false;
    if (!isPlaceholder(v) && request.get(k) !== v) return false;
  }
  return true;
}

const splitQuery = (url: string): [string, string | undefined] => {
  const at = url.indexOf('?');
  return at < 0 ? [url, undefined] : [url.slice(0, at), url.slice(at + 1)];
};

export function urlMatches(ruleUrl: string, requestUrl: string): boolean {
  const [rulePath, ruleQuery] = splitQuery(ruleUrl);
  const [requestPath, requestQuery] = splitQuery(requestUrl);
  if (!pathMatches(rulePath, requestPath)) return false;
  if (ruleQuery === undefined) return true;
  return requestQuery !== undefined && queryMatches(ruleQuery, requestQuery);
}

/** The rule that decides a request, or undefined when none matches. */
export function matchRule(rules: MappingRule[], httpMethod: string, url: string): MappingRule | undefined {
  const method = httpMethod.toLowerCase();
  const matched = rules.filter((r) => r.http_method.toLowerCase() === method && urlMatches(r.url, url));
  // Stable: on a tie of priority the earlier rule stays first.
  matched.sort((a, b) => (b.priority ?? 0) - (a.priority ?? 0));
  return matched[0];
}

/** The values of the rule's `{name}` placeholders in the request's path and query. */
export function attributesOf(rule: MappingRule, url: string): Record<string, string> {
  const [rulePath, ruleQuery] = splitQuery(rule.url);
  const [requestPath, requestQuery] = splitQuery(url);
  const out: Record<string, string> = {};
  const ruleParts = rulePath.split('/');
  const requestParts = requestPath.split('/');
  if (ruleParts.length === requestParts.length) {
    ruleParts.forEach((p, i) => {
      if (isPlaceholder(p)) out[p.slice(1, -1)] = requestParts[i];
    });
  }
  if (ruleQuery !== undefined && requestQuery !== undefined) {
    const request = queryParams(requestQuery);
    for (const [k, v] of queryParams(ruleQuery)) {
      const value = request.get(k);
      if (isPlaceholder(v) && value !== undefined) out[v.slice(1, -1)] = value;
    }
  }
  return out;
}
