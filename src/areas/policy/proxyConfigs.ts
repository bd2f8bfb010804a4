import type { ErrorDetail } from '../../errors';
import { type MappingRule, ruleProblems, storedRule } from '../urlMapping/match';
import type { PolicyFile } from './format';
import { canonicalJson, type ProxyConfigRow } from './model';
import type { Change } from './plan';

/**
 * Proxy configs in policy files (docs/policy-as-code.md, docs/behaviour.md section 24): Permit's
 * holders of the URL-mapping rules `/allowed_url` applies. A file carries a config's name, its
 * `auth_mechanism` and its rules, never a secret (the service keeps none). A file without
 * `proxy_configs` leaves the environment's configs as they are (files written before they could be
 * in one keep working); `proxy_configs: {}` removes every one.
 */
export interface ProxyConfigModel {
  name: string;
  auth_mechanism: string;
  /** The rules as kept (urlMapping/match.ts storedRule), in their order (it breaks ties of priority). */
  mapping_rules: MappingRule[];
}
export type ProxyConfigsModel = Record<string, ProxyConfigModel>;

export function proxyConfigsOfGraph(rows: readonly ProxyConfigRow[]): ProxyConfigsModel {
  const out: ProxyConfigsModel = Object.create(null);
  for (const c of rows)
    out[c.key] = {
      name: c.name,
      auth_mechanism: c.auth_mechanism ?? 'Bearer',
      mapping_rules: c.mapping_rules_json ? (JSON.parse(c.mapping_rules_json) as MappingRule[]) : [],
    };
  return out;
}

/** The file's configs, or undefined when it has no `proxy_configs` (the environment's stay). */
export function proxyConfigsOfFile(file: PolicyFile): ProxyConfigsModel | undefined {
  if (file.proxy_configs === undefined) return undefined;
  const out: ProxyConfigsModel = Object.create(null);
  for (const [k, c] of Object.entries(file.proxy_configs))
    out[k] = {
      name: c.name ?? k,
      auth_mechanism: c.auth_mechanism ?? 'Bearer',
      mapping_rules: (c.mapping_rules ?? []).map((r) => storedRule(r as MappingRule)),
    };
  return out;
}

/** Rules `/allowed_url` could not apply, at their place in the file (as the API refuses them: 422). */
export function proxyConfigProblems(file: PolicyFile): ErrorDetail[] {
  return Object.entries(file.proxy_configs ?? {}).flatMap(([k, c]) =>
    ruleProblems((c.mapping_rules ?? []) as MappingRule[], `/body/proxy_configs/${k}/mapping_rules`),
  );
}

/** Configs made, changed (the fields that differ) or removed. */
export function planProxyConfigs(have: ProxyConfigsModel, want: ProxyConfigsModel | undefined): Change[] {
  if (want === undefined) return [];
  const out: Change[] = [];
  for (const [k, c] of Object.entries(want)) {
    const h = Object.hasOwn(have, k) ? have[k] : undefined;
    if (!h) {
      out.push({ op: 'create', kind: 'proxy_config', key: k, name: k });
      continue;
    }
    const fields = [
      ...(h.name !== c.name ? ['name'] : []),
      ...(h.auth_mechanism !== c.auth_mechanism ? ['auth_mechanism'] : []),
      ...(canonicalJson(h.mapping_rules) !== canonicalJson(c.mapping_rules) ? ['mapping_rules'] : []),
    ];
    if (fields.length) out.push({ op: 'update', kind: 'proxy_config', key: k, name: k, fields });
  }
  for (const k of Object.keys(have)) if (!Object.hasOwn(want, k)) out.push({ op: 'delete', kind: 'proxy_config', key: k, name: k });
  return out;
}

type FileRule = NonNullable<NonNullable<PolicyFile['proxy_configs']>[string]['mapping_rules']>[number];
/** A rule as a file writes it: what is not its default (its method as kept: lower case). */
const fileRule = (r: MappingRule): FileRule => ({
  url: r.url,
  ...(r.url_type ? { url_type: r.url_type } : {}),
  http_method: r.http_method as FileRule['http_method'],
  resource: r.resource,
  ...(r.action != null ? { action: r.action } : {}),
  ...(r.priority != null ? { priority: r.priority } : {}),
  ...(r.headers && Object.keys(r.headers).length ? { headers: r.headers } : {}),
});

/** The file's `proxy_configs` section (export): none when the environment has no config. */
export function proxyConfigsSection(m: ProxyConfigsModel): Pick<PolicyFile, 'proxy_configs'> {
  const keys = Object.keys(m).sort();
  if (!keys.length) return {};
  return {
    proxy_configs: Object.fromEntries(
      keys.map((k) => {
        const c = m[k];
        return [
          k,
          {
            ...(c.name !== k ? { name: c.name } : {}),
            ...(c.auth_mechanism !== 'Bearer' ? { auth_mechanism: c.auth_mechanism as 'Bearer' | 'Basic' | 'Headers' } : {}),
            mapping_rules: c.mapping_rules.map(fileRule),
          },
        ];
      }),
    ),
  };
}
