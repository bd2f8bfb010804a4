import { randomUUID } from 'node:crypto';
import type { Scope } from '../../auth/types';
import { scoped } from '../../auth/types';
import { invalidInput, notFound } from '../../errors';
import type { Page } from '../../http/paging';
import type { DecisionService } from '../decisions/service';
import { type QuestionBody, questionOf } from '../decisions/question';
import { attributesOf, isHttpUrl, type MappingRule, matchRule, ruleProblems, storedRule } from './match';
import type { ProxyConfigNode, UrlMappingStore } from './store';

export interface ProxyConfigInput {
  key: string;
  name: string;
  secret?: unknown;
  mapping_rules?: MappingRule[];
  auth_mechanism?: string;
}

export interface UrlCheck {
  user: QuestionBody['user'];
  http_method: string;
  url: string;
  tenant: string;
  context?: Record<string, unknown> | null;
}

/** What Permit's PDP answers when no rule maps the request: a deny that says why. */
export const NO_RULE_REASON = 'Matched mapping rule not found for the requested URL and HTTP method';

/**
 * Permit's proxy configs as holders of URL-mapping rules, and its PDP's `/allowed_url`
 * (docs/behaviour.md section 24). graph-authz proxies no request: a config's `secret` is taken
 * and not kept (reads answer `secret: null`); its `auth_mechanism` is kept as given.
 */
export class UrlMappingService {
  constructor(
    private readonly store: UrlMappingStore,
    private readonly decisions: Pick<DecisionService, 'allowed'>,
  ) {}

  private view(scope: Scope, c: ProxyConfigNode) {
    return {
      key: c.key,
      id: c.id,
      ...scoped(scope),
      created_at: c.created_at,
      updated_at: c.updated_at,
      secret: null,
      name: c.name,
      mapping_rules: (c.mapping_rules_json ? JSON.parse(c.mapping_rules_json) : []) as MappingRule[],
      auth_mechanism: c.auth_mechanism ?? 'Bearer',
    };
  }

  /** The rules as kept, refused with 422 where /allowed_url could not apply them (./match.ts ruleProblems). */
  private rulesJson(rules: MappingRule[] | undefined): string | null {
    if (rules === undefined) return null;
    const details = ruleProblems(rules, '/body/mapping_rules');
    if (details.length)
      throw invalidInput(`Mapping rules that cannot be applied: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}.`, details);
    return JSON.stringify(rules.map(storedRule));
  }

  async create(scope: Scope, input: ProxyConfigInput) {
    const rulesJson = this.rulesJson(input.mapping_rules ?? []);
    const made = await this.store.write((tx) =>
      this.store.create(tx, scope.envId, {
        id: randomUUID(),
        key: input.key,
        name: input.name,
        authMechanism: input.auth_mechanism ?? 'Bearer',
        rulesJson,
        nowIso: new Date().toISOString(),
      }),
    );
    if (!made) throw notFound('Proxy config', input.key);
    return this.view(scope, made);
  }

  async list(scope: Scope, page: Page) {
    const { data } = await this.store.list(scope.envId, page);
    return data.map((c) => this.view(scope, c));
  }

  async get(scope: Scope, ref: string) {
    const c = await this.store.get(scope.envId, ref);
    if (!c) throw notFound('Proxy config', ref);
    return this.view(scope, c);
  }

  async update(scope: Scope, ref: string, patch: Partial<Omit<ProxyConfigInput, 'key'>>) {
    const rulesJson = this.rulesJson(patch.mapping_rules);
    return this.store.write(async (tx) => {
      const c = await this.store.get(scope.envId, ref, tx);
      if (!c) throw notFound('Proxy config', ref);
      const updated = await this.store.update(tx, scope.envId, c.key, {
        name: patch.name ?? null,
        authMechanism: patch.auth_mechanism ?? null,
        rulesJson,
        nowIso: new Date().toISOString(),
      });
      if (!updated) throw notFound('Proxy config', ref);
      return this.view(scope, updated);
    });
  }

  async remove(scope: Scope, ref: string) {
    await this.store.write(async (tx) => {
      const c = await this.store.get(scope.envId, ref, tx);
      if (!c || !(await this.store.delete(tx, scope.envId, c.key))) throw notFound('Proxy config', ref);
    });
  }

  /**
   * Permit's PDP `/allowed_url`: the rule that maps the request (./match.ts) names the resource type
   * and the action (the rule's, else its HTTP method); the check is then an ordinary one on the type
   * in `tenant` (no instance), its placeholders' values the resource's attributes. No rule: a deny,
   * with Permit's reason and the rules tried.
   */
  async check(scope: Scope, body: UrlCheck) {
    if (!isHttpUrl(body.url))
      throw invalidInput('url must be an http(s) URL with its host.', [{ path: '/body/url', message: 'must be an http(s) URL' }]);
    const rules = (await this.store.rules(scope.envId)).flatMap((json) => JSON.parse(json) as MappingRule[]);
    const rule = matchRule(rules, body.http_method, body.url);
    if (!rule) {
      return { allow: false, result: false, query: body, debug: { reason: NO_RULE_REASON, mapping_rules: rules } };
    }
    const query = {
      user: body.user,
      action: rule.action ?? rule.http_method,
      resource: { type: rule.resource, tenant: body.tenant, attributes: attributesOf(rule, body.url) },
      context: body.context ?? {},
    };
    const { allow } = await this.decisions.allowed(scope, questionOf(query));
    return { allow, result: allow, query, debug: { mapping_rule: rule } };
  }
}
