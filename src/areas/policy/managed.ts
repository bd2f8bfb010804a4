import { APPROVAL_ACTIONS, APPROVAL_ROLES } from '../elements/govern';
import type { PolicyModel, ResourceModel } from './model';

/**
 * Schema the service makes by itself (docs/behaviour.md section 16): never in a policy file, never in a
 * plan's difference, never removed by apply.
 *
 * - Built-in resources: keys starting with `__` (Permit's `__user`, ...).
 * - Group types (resources that groups are instances of, section 4): the type itself, its
 *   `member` role, its `group` relation (nested groups) and the relations `<type>_<role>_group`
 *   that group role grants make on target resources, with the derivations over those relations.
 * - Resources an elements config governs (section 7): the actions `operate` / `review` and the
 *   roles `_Reviewer_` / `_Approved_`.
 *
 * A managed part written in a file anyway is ignored (it is there already, or will be made).
 */
const APPROVAL_ACTION_KEYS = Object.keys(APPROVAL_ACTIONS);

export class Managed {
  private readonly groupTypes: Set<string>;
  private readonly governed: Set<string>;

  constructor(groupTypes: string[], governed: string[]) {
    this.groupTypes = new Set(groupTypes);
    this.governed = new Set(governed);
  }

  /** The whole resource is the service's: left alone when a file does not name it. */
  resource(key: string): boolean {
    return key.startsWith('__') || this.groupTypes.has(key);
  }
  /** The actions and roles an elements config makes on `resource` (none when no config governs it). */
  approvalActions(resource: string): string[] {
    return this.governed.has(resource) ? APPROVAL_ACTION_KEYS : [];
  }
  approvalRoles(resource: string): string[] {
    return this.governed.has(resource) ? APPROVAL_ROLES : [];
  }
  action(resource: string, action: string): boolean {
    return this.governed.has(resource) && APPROVAL_ACTION_KEYS.includes(action);
  }
  role(resource: string, role: string): boolean {
    return (this.governed.has(resource) && APPROVAL_ROLES.includes(role)) || (this.groupTypes.has(resource) && role === 'member');
  }
  relation(resource: string, key: string, subject: string): boolean {
    if (!this.groupTypes.has(subject)) return false;
    return (key === 'group' && subject === resource) || (key.startsWith(`${subject}_`) && key.endsWith('_group'));
  }

  /** `model` without its managed parts; whole managed resources are kept only when they hold parts of their own. */
  own(model: PolicyModel, relationsOf: (resource: string) => Record<string, string>): PolicyModel {
    const resources: Record<string, ResourceModel> = Object.create(null);
    for (const [key, r] of Object.entries(model.resources)) {
      // Built-in resources never appear (`__user`'s attributes travel as the file's `user_attributes`).
      if (key.startsWith('__')) continue;
      const own = this.ownParts(key, r, relationsOf(key));
      if (this.resource(key) && !hasOwnParts(key, own)) continue;
      resources[key] = own;
    }
    return { resources, roles: model.roles, configs: model.configs };
  }

  /** The resource's parts that are not managed. `relations`: the relations it has (to tell managed derivations). */
  ownParts(key: string, r: ResourceModel, relations: Record<string, string>): ResourceModel {
    const pick = <V>(m: Record<string, V>, keep: (k: string, v: V) => boolean) => {
      const out: Record<string, V> = Object.create(null);
      for (const [k, v] of Object.entries(m)) if (keep(k, v)) out[k] = v;
      return out;
    };
    const managedRelation = (rel: string) => Object.hasOwn(relations, rel) && this.relation(key, rel, relations[rel]);
    return {
      ...r,
      actions: pick(r.actions, (a) => !this.action(key, a)),
      relations: pick(r.relations, (k, subject) => !this.relation(key, k, subject)),
      roles: pick(r.roles, (k) => !this.role(key, k)),
      derivations: r.derivations.filter((d) => !managedRelation(d.linked_by_relation)),
    };
  }
}

function hasOwnParts(key: string, r: ResourceModel): boolean {
  return (
    r.name !== key ||
    r.description !== null ||
    r.attributes !== '{}' ||
    Object.keys(r.actions).length > 0 ||
    Object.keys(r.relations).length > 0 ||
    Object.keys(r.roles).length > 0 ||
    r.derivations.length > 0
  );
}
