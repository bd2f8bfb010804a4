import type { Scope } from '../../auth/types';
import { AppError } from '../../errors';
import type { EnvironmentView, ProvisioningService } from '../provisioning/service';
import type { PolicyFile } from './format';
import { canonicalJson } from './model';
import type { PolicyService } from './service';

/** Permit's EnvironmentCopyScopeFilters: keys to include and to exclude, `*` a wildcard. */
export interface CopyFilter {
  include?: string[];
  exclude?: string[];
}
/** Permit's EnvironmentCopy. */
export interface EnvironmentCopyInput {
  target_env: { existing?: string; new?: { key: string; name: string; description?: string } };
  conflict_strategy?: 'fail' | 'overwrite';
  scope?: { resources?: CopyFilter; roles?: CopyFilter; user_sets?: CopyFilter; resource_sets?: CopyFilter; custom_policies?: CopyFilter };
}

const pattern = (glob: string) => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
/** No filter, or no `include`: every key; then `exclude` takes keys out. */
const admits = (f: CopyFilter | undefined) => {
  const inc = (f?.include ?? []).map(pattern);
  const exc = (f?.exclude ?? []).map(pattern);
  return (key: string) => (inc.length === 0 || inc.some((p) => p.test(key))) && !exc.some((p) => p.test(key));
};

/**
 * Permit's environment copy (`POST /v2/projects/{p}/envs/{e}/copy`): the schema objects of one
 * environment (resources with their actions, roles, relations and derivations; tenant roles;
 * user sets and resource sets, with the user attributes and set rules that go with them) into a
 * new environment or an existing one, built on the policy apply (./service.ts): the target's own
 * schema as a policy file, the copied objects set into it, and that file applied (one transaction).
 * An object the target has with another definition is a conflict: `fail` (the default) answers
 * 409 naming each and changes nothing, `overwrite` replaces it. Facts (users, tenants, instances,
 * assignments) are not copied: that is `graph-authz copy` (docs/policy-as-code.md).
 */
export class EnvironmentCopier {
  constructor(
    private readonly policy: PolicyService,
    private readonly provisioning: ProvisioningService,
    private readonly orgId: string,
  ) {}

  async copy(source: Scope, input: EnvironmentCopyInput): Promise<EnvironmentView> {
    const { existing, new: made } = input.target_env;
    if ((existing === undefined) === (made === undefined)) {
      throw new AppError(
        422,
        'INVALID_INPUT',
        'target_env names one environment: `existing` (its key or id) or `new` (an EnvironmentCreate).',
        [{ path: '/body/target_env', message: 'needs exactly one of existing, new' }],
      );
    }
    const from = await this.policy.exportPolicy(source);
    const copied = selection(from, input.scope);
    const strategy = input.conflict_strategy ?? 'fail';
    if (existing !== undefined) {
      const target = await this.provisioning.getEnvironment(source.projectId, existing);
      if (target.id === source.envId) {
        throw new AppError(422, 'INVALID_INPUT', 'The target environment is the source environment.', [
          { path: '/body/target_env/existing', message: 'names the source' },
        ]);
      }
      const scope = this.scopeOf(source, target);
      const merged = merge(await this.policy.exportPolicy(scope), copied, strategy);
      await this.policy.apply(scope, merged, false);
      return target;
    }
    const target = await this.provisioning.createEnvironment(source.projectId, made!);
    try {
      await this.policy.apply(this.scopeOf(source, target), copied, false);
    } catch (err) {
      // The new environment is made whole or not at all: one that could not take the copy is removed.
      await this.provisioning.deleteEnvironment(source.projectId, target.id).catch(() => undefined);
      throw err;
    }
    return target;
  }

  private scopeOf(source: Scope, env: EnvironmentView): Scope {
    return { orgId: this.orgId, projectId: source.projectId, projectKey: source.projectKey, envId: env.id, envKey: env.key };
  }
}

/** The objects of a policy file that the copy's scope admits. */
function selection(file: PolicyFile, scope: EnvironmentCopyInput['scope']): PolicyFile {
  const resources = admits(scope?.resources);
  const roles = admits(scope?.roles);
  const userSets = admits(scope?.user_sets);
  const resourceSets = admits(scope?.resource_sets);
  const pick = <T>(m: Record<string, T> | undefined, ok: (k: string, v: T) => boolean) =>
    Object.fromEntries(Object.entries(m ?? {}).filter(([k, v]) => ok(k, v)));
  const sets = pick(file.condition_sets, (k, s) => (s.type === 'resourceset' ? resourceSets(k) : userSets(k)));
  const roleKeys = pick(file.roles, (k) => roles(k));
  const out: PolicyFile = { resources: pick(file.resources, (k) => resources(k)), roles: roleKeys, condition_sets: sets };
  if (file.user_attributes) out.user_attributes = file.user_attributes;
  // A set rule goes with the copy when what it names does: its user set (a set or a tenant role)
  // and its resource set (a set or a resource).
  out.set_rules = (file.set_rules ?? []).filter(
    (r) => (r.user_set in sets || r.user_set in roleKeys) && (r.resource_set in sets || r.resource_set in (out.resources ?? {})),
  );
  return out;
}

/** The target's file with the copied objects set into it; a differing object is a conflict (409 with `fail`). */
function merge(target: PolicyFile, copied: PolicyFile, strategy: 'fail' | 'overwrite'): PolicyFile {
  const conflicts: { path: string; message: string }[] = [];
  const into = <T>(section: 'resources' | 'roles' | 'condition_sets' | 'user_attributes', what: string) => {
    const have = { ...((target[section] ?? {}) as Record<string, T>) };
    for (const [k, v] of Object.entries((copied[section] ?? {}) as Record<string, T>)) {
      if (k in have && canonicalJson(have[k]) !== canonicalJson(v)) {
        conflicts.push({ path: `/${section}/${k}`, message: `${what} ${JSON.stringify(k)} differs in the target` });
        if (strategy === 'fail') continue;
      }
      have[k] = v;
    }
    return have;
  };
  const merged: PolicyFile = {
    ...target,
    resources: into('resources', 'resource'),
    roles: into('roles', 'role'),
    condition_sets: into('condition_sets', 'condition set'),
    user_attributes: into('user_attributes', 'user attribute'),
  };
  const rules = new Map((target.set_rules ?? []).map((r) => [`${r.user_set}|${r.permission}|${r.resource_set}`, r]));
  for (const r of copied.set_rules ?? []) rules.set(`${r.user_set}|${r.permission}|${r.resource_set}`, r);
  merged.set_rules = [...rules.values()];
  if (conflicts.length && strategy === 'fail') {
    throw new AppError(
      409,
      'DUPLICATE_ENTITY',
      `The target environment has ${conflicts.length} of the copied objects with another definition: ${conflicts
        .slice(0, 5)
        .map((c) => c.message)
        .join('; ')}. Nothing was copied; copy with conflict_strategy=overwrite to replace them.`,
      conflicts,
    );
  }
  return merged;
}
