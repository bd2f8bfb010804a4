import { attributesOf, type MappingRule, matchRule, urlMatches } from '../../src/areas/urlMapping/match';

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
});
