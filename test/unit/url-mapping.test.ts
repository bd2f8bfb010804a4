import { attributesOf, MAX_URL_LENGTH, type MappingRule, matchRule, regexError, urlMatches } from '../../src/areas/urlMapping/match';

/** docs/behaviour.md section 24: Permit's PDP rules for which URL-mapping rule maps a request. */
const rule = (url: string, extra: Partial<MappingRule> = {}): MappingRule => ({ url, http_method: 'get', resource: 'doc', ...extra });

describe('URL-mapping rules', () => {
  it('match a path segment by segment, a {name} matching any one segment', () => {
    expect(urlMatches('https://api.x.io/v1/docs/{id}', 'https://api.x.io/v1/docs/42')).toBe(true);
    expect(urlMatches('https://api.x.io/v1/docs/{id}', 'https://api.x.io/v1/docs/42/pages')).toBe(false);
    expect(urlMatches('https://api.x.io/v1/docs/{id}', 'https://api.x.io/v2/docs/42')).toBe(false);
    expect(urlMatches('https://api.x.io/v1/docs', 'https://other.io/v1/docs')).toBe(false);
  });

  it("match a query: the rule's parameters must be there (a {name} with any value); a rule without one takes any query", () => {
    expect(urlMatches('https://api.x.io/docs?limit={n}', 'https://api.x.io/docs?limit=5&x=1')).toBe(true);
    expect(urlMatches('https://api.x.io/docs?limit={n}', 'https://api.x.io/docs?x=1')).toBe(false);
    expect(urlMatches('https://api.x.io/docs?limit={n}', 'https://api.x.io/docs')).toBe(false);
    expect(urlMatches('https://api.x.io/docs?state=open', 'https://api.x.io/docs?state=closed')).toBe(false);
    expect(urlMatches('https://api.x.io/docs', 'https://api.x.io/docs?state=closed')).toBe(true);
  });

  it('pick by method (any case), then the highest priority; on a tie the first', () => {
    const rules = [
      rule('https://api.x.io/docs/{id}', { action: 'read' }),
      rule('https://api.x.io/docs/{id}', { action: 'audit', priority: 5 }),
      rule('https://api.x.io/docs/{id}', { action: 'write', http_method: 'put' }),
      rule('https://api.x.io/docs/{key}', { action: 'peek', priority: 5 }),
    ];
    expect(matchRule(rules, 'GET', 'https://api.x.io/docs/1')?.action).toBe('audit');
    expect(matchRule(rules, 'put', 'https://api.x.io/docs/1')?.action).toBe('write');
    expect(matchRule(rules, 'delete', 'https://api.x.io/docs/1')).toBeUndefined();
    expect(matchRule(rules.slice(0, 1), 'GET', 'https://api.x.io/files/1')).toBeUndefined();
  });

  it("give the placeholders' values as attributes, from the path and the query", () => {
    const r = rule('https://api.x.io/orgs/{org}/docs/{id}?view={view}');
    expect(attributesOf(r, 'https://api.x.io/orgs/acme/docs/7?view=full&x=1')).toEqual({ org: 'acme', id: '7', view: 'full' });
  });

  it("regex rules: Python's re.match on the whole URL, anchored at its start only; named groups are the attributes", () => {
    const docs = 'https://api\\.x\\.io/docs/(?P<id>\\d+)';
    expect(urlMatches(docs, 'https://api.x.io/docs/42', 'regex')).toBe(true);
    // re.match anchors the start, not the end: a longer URL matches unless the pattern ends in $.
    expect(urlMatches(docs, 'https://api.x.io/docs/42/pages?x=1', 'regex')).toBe(true);
    expect(urlMatches(`${docs}$`, 'https://api.x.io/docs/42/pages', 'regex')).toBe(false);
    // Not a search: a pattern of the path alone does not match a URL that starts with its scheme.
    expect(urlMatches('/docs/\\d+', 'https://api.x.io/docs/42', 'regex')).toBe(false);
    // The query is part of what is matched.
    expect(urlMatches('.*\\?state=open', 'https://api.x.io/docs?state=open', 'regex')).toBe(true);
    expect(urlMatches('.*\\?state=open', 'https://api.x.io/docs?state=closed', 'regex')).toBe(false);
    const r = rule('https://api\\.x\\.io/(?P<org>[a-z]+)/(?:v(?P<v>\\d))?docs/(?<id>\\d+)', { url_type: 'regex' });
    expect(attributesOf(r, 'https://api.x.io/acme/docs/7')).toEqual({ org: 'acme', v: null, id: '7' });
    expect(attributesOf(r, 'https://api.x.io/acme/v2docs/7')).toEqual({ org: 'acme', v: '2', id: '7' });
  });

  it('regex and plain rules compete by priority alike', () => {
    const plain = rule('https://api.x.io/docs/{id}', { action: 'read', priority: 1 });
    const regex = rule('https://api\\.x\\.io/docs/\\d+$', { url_type: 'regex', action: 'audit', priority: 2 });
    expect(matchRule([plain, regex], 'get', 'https://api.x.io/docs/9')?.action).toBe('audit');
    expect(matchRule([plain, { ...regex, priority: 0 }], 'get', 'https://api.x.io/docs/9')?.action).toBe('read');
    // The regex does not match a key that is not digits: the plain rule decides whatever its priority.
    expect(matchRule([{ ...plain, priority: null }, regex], 'get', 'https://api.x.io/docs/abc')?.action).toBe('read');
  });

  it('a pattern RE2 cannot run, or too large, is named with the reason; Python named groups are taken', () => {
    expect(regexError('https://a\\.io/(?P<id>\\d+)$')).toBeNull();
    expect(regexError('https://a\\.io/(?=admin)')).toMatch(/invalid or unsupported Perl syntax: `\(\?=`/);
    expect(regexError('(a)\\1')).toMatch(/invalid escape sequence: `\\1`/);
    expect(regexError('https://a\\.io/(x')).toMatch(/missing closing \)/);
    // A pattern that would close the matcher's own group is refused, not run out of its anchor.
    expect(regexError('a)|(b')).not.toBeNull();
    expect(regexError('[a-z]{1000}[0-9]{1000}x')).toMatch(/RE2 instructions, more than 2000/);
  });

  it('a pattern catastrophic for a backtracking engine answers, in time linear in the URL', () => {
    const base = 'https://x.io/';
    const as = 'a'.repeat(MAX_URL_LENGTH - base.length - 1);
    // (a+)+$ on "aaa...a!" takes a backtracking engine (Python's re, JavaScript's RegExp) 2^n steps.
    expect(urlMatches('https://x\\.io/(a+)+$', `${base}${as}!`, 'regex')).toBe(false);
    expect(urlMatches('https://x\\.io/(a+)+$', `${base}${as}a`, 'regex')).toBe(true);
    expect(attributesOf(rule('https://x\\.io/(?P<run>(a+)+)$', { url_type: 'regex' }), `${base}${as}a`).run).toHaveLength(as.length + 1);
    // A URL longer than /allowed_url takes (its schema refuses it) is not read at all.
    expect(urlMatches('https://x\\.io/(a+)+', `${base}${'a'.repeat(10_000)}`, 'regex')).toBe(false);
  });
});
