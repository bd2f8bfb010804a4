import { RE2JS, RE2JSException } from 're2js';
import type { ErrorDetail } from '../../errors';
import { LruCache } from '../../util/lruCache';
import { MAX_URL_LENGTH } from './schemas';

export { MAX_URL_LENGTH };

/**
 * Permit's URL-mapping rules as its PDP applies them at `/allowed_url` (docs/behaviour.md section 24):
 * a rule matches a request when its HTTP method is the request's (any case) and its URL matches
 * the request's URL; of the matching rules the highest `priority` wins (none counts as 0; on a tie,
 * the first in order: the oldest proxy config's, in its list's order).
 *
 * A `url_type: "regex"` rule's URL is a regular expression matched, as Permit's PDP does with
 * Python's `re.match`, against the start of the whole request URL (scheme, host, path and query;
 * anchored at the start only: `$` anchors the end); its named groups' values are the resource's
 * attributes. It runs on RE2 (the `re2js` port), whose time is linear in the URL: a pattern RE2
 * does not take (lookarounds, backreferences) or larger than MAX_REGEX_PROGRAM is refused when the
 * rule is written (regexError), and the URL it reads is at most MAX_URL_LENGTH characters.
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

/**
 * The largest compiled pattern a regex rule may have (RE2's program size, about one instruction per
 * character or repeated item): matching costs at most this times the URL's length.
 */
export const MAX_REGEX_PROGRAM = 2000;

interface CompiledRegex {
  /** `^(?:pattern)`: whether the pattern matches at the URL's start, without captures (RE2's DFA). */
  atStart: RE2JS;
  /** The pattern itself, for its named groups' values once its rule has won. */
  groups: RE2JS;
}

/** Compiled patterns by their text: rules are read per request, compiled once. */
const compiled = new LruCache<CompiledRegex>(1000);

function compileRegex(pattern: string): CompiledRegex {
  let hit = compiled.get(pattern);
  if (!hit) {
    hit = { atStart: RE2JS.compile(`^(?:${pattern})`), groups: RE2JS.compile(pattern) };
    compiled.set(pattern, hit);
  }
  return hit;
}

/**
 * Why a regex rule's pattern cannot be served (RE2's syntax error, or its size), or null when it can.
 * Python's named groups `(?P<name>...)` are RE2's; lookarounds and backreferences are not.
 */
export function regexError(pattern: string): string | null {
  let groups: RE2JS;
  try {
    groups = RE2JS.compile(pattern);
    // The wrapped form is what runs; a pattern that closes the wrapper's group early (`a)|(b`) fails above.
    RE2JS.compile(`^(?:${pattern})`);
  } catch (e) {
    if (e instanceof RE2JSException) return `${e.message} (RE2 syntax: no lookarounds or backreferences)`;
    throw e;
  }
  const size = groups.programSize();
  if (size > MAX_REGEX_PROGRAM) return `the pattern compiles to ${size} RE2 instructions, more than ${MAX_REGEX_PROGRAM}`;
  return null;
}

const HTTP_URL = /^https?:\/\/[^/?#\s]+/i;
/** Whether a URL (of a check, or of a plain rule) is an http(s) URL with its host. */
export const isHttpUrl = (url: string) => HTTP_URL.test(url);

/**
 * Why rules cannot be applied, one detail each at `${base}/{i}/...` (none: they can): a regex
 * rule's pattern RE2 does not take, another rule's URL without an http(s) scheme and host. Rules
 * come from the API, policy files and imports: each is checked here before it is kept.
 */
export function ruleProblems(rules: readonly MappingRule[], base: string): ErrorDetail[] {
  return rules.flatMap((r, i) => {
    if (r.url_type === 'regex') {
      const error = regexError(r.url);
      return error ? [{ path: `${base}/${i}/url`, message: `is not a regular expression this service can run: ${error}` }] : [];
    }
    if (!isHttpUrl(r.url))
      return [{ path: `${base}/${i}/url`, message: 'must be an http(s) URL with its host, e.g. https://api.example.com/v1/{id}' }];
    return [];
  });
}

/**
 * The rules a proxy config keeps (`mapping_rules_json`) read from an import's line: why they are
 * not rules this service can apply (a string), or the rules.
 */
export function storedRulesOf(json: unknown): MappingRule[] | string {
  if (typeof json !== 'string') return '"mapping_rules_json" must be the rules as JSON text';
  let rules: unknown;
  try {
    rules = JSON.parse(json);
  } catch {
    return '"mapping_rules_json" is not JSON';
  }
  const str = (v: unknown) => typeof v === 'string' && v.length > 0;
  if (!Array.isArray(rules)) return '"mapping_rules_json" must be a list of rules';
  const bad = rules.findIndex(
    (r) =>
      typeof r !== 'object' ||
      r === null ||
      !str(r.url) ||
      !str(r.http_method) ||
      !str(r.resource) ||
      ![undefined, null, 'regex'].includes(r.url_type) ||
      (r.priority != null && !Number.isInteger(r.priority)),
  );
  if (bad >= 0) return `mapping rule ${bad} is not a rule (url, http_method and resource, url_type null or "regex", an integer priority)`;
  const problems = ruleProblems(rules as MappingRule[], 'mapping_rules');
  if (problems.length) return problems.map((p) => `${p.path} ${p.message}`).join('; ');
  return (rules as MappingRule[]).map(storedRule);
}

/** A rule as kept: the method in lower case, `headers` an object, absent fields null. */
export const storedRule = (r: MappingRule): MappingRule => ({
  url: r.url,
  url_type: r.url_type ?? null,
  http_method: r.http_method.toLowerCase(),
  resource: r.resource,
  headers: r.headers ?? {},
  action: r.action ?? null,
  priority: r.priority ?? null,
});

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

function regexMatches(pattern: string, requestUrl: string): boolean {
  if (requestUrl.length > MAX_URL_LENGTH) return false;
  try {
    return compileRegex(pattern).atStart.test(requestUrl);
  } catch {
    // Only a pattern stored before it was checked could fail here: Permit's PDP counts it as no match.
    return false;
  }
}

/** Whether a rule's URL (a `{name}` template, or a pattern for a regex rule) matches the request's URL. */
export function urlMatches(ruleUrl: string, requestUrl: string, urlType?: MappingRule['url_type']): boolean {
  if (urlType === 'regex') return regexMatches(ruleUrl, requestUrl);
  const [rulePath, ruleQuery] = splitQuery(ruleUrl);
  const [requestPath, requestQuery] = splitQuery(requestUrl);
  if (!pathMatches(rulePath, requestPath)) return false;
  if (ruleQuery === undefined) return true;
  return requestQuery !== undefined && queryMatches(ruleQuery, requestQuery);
}

/** The rule that decides a request, or undefined when none matches. */
export function matchRule(rules: MappingRule[], httpMethod: string, url: string): MappingRule | undefined {
  const method = httpMethod.toLowerCase();
  const matched = rules.filter((r) => r.http_method.toLowerCase() === method && urlMatches(r.url, url, r.url_type));
  // Stable: on a tie of priority the earlier rule stays first.
  matched.sort((a, b) => (b.priority ?? 0) - (a.priority ?? 0));
  return matched[0];
}

/** The values of a regex rule's named groups at the URL's start (null: the group took no part), as Python's `groupdict()`. */
function groupsOf(pattern: string, url: string): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  const { groups } = compileRegex(pattern);
  const m = groups.matcher(url);
  if (!m.lookingAt()) return out;
  for (const name of Object.keys(groups.namedGroups())) out[name] = m.group(name);
  return out;
}

/**
 * The resource's attributes a matched rule gives: the values of its `{name}` placeholders in the
 * request's path (a regex rule: its named groups), then those of its query's `{name}` values.
 */
export function attributesOf(rule: MappingRule, url: string): Record<string, string | null> {
  const [rulePath, ruleQuery] = splitQuery(rule.url);
  const [requestPath, requestQuery] = splitQuery(url);
  const out: Record<string, string | null> = rule.url_type === 'regex' ? groupsOf(rule.url, url) : {};
  const ruleParts = rulePath.split('/');
  const requestParts = requestPath.split('/');
  if (rule.url_type !== 'regex' && ruleParts.length === requestParts.length) {
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
