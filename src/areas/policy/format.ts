import type { TArray, TRecord, TString, TUnion } from '@sinclair/typebox';
import { anyObject, arr, bool, mapOf, nullable, obj, schemaKey, str } from '../../http/schema';
import type { Static } from '../../http/schema';
import { ELEMENTS_TYPES, LEVELS } from '../elements/schemas';
import { ATTRIBUTE_TYPES } from '../conditions/schemas';
import { mappingRule } from '../urlMapping/schemas';

/**
 * The policy file (docs/behaviour.md section 16): an environment's own schema as one document that
 * teams keep in git. YAML or JSON; this JSON Schema is served at `GET /v2/policy.schema.json`
 * (editors complete and check it) and validates `PUT /v2/schema/{p}/{e}/policy`.
 * docs/policy-as-code.md explains every field with the seed's worked example.
 */
const name = str({ minLength: 1, maxLength: 256, description: 'Display name; the key when absent.' });
const description = nullable(str({ maxLength: 4096, description: 'Free text.' }));

const actionBlock = obj({ name, description });
/** Actions as a list of keys, or a map key -> {name?, description?}. */
const actions = {
  description: 'The actions of the resource: a list of keys, or a map of key to {name, description}.',
  anyOf: [arr(schemaKey(), { maxItems: 1000, uniqueItems: true }), mapOf(actionBlock, schemaKey())],
} as unknown as TUnion<[TArray<TString>, TRecord<TString, typeof actionBlock>]>;

const roleExtends = arr(schemaKey(), {
  maxItems: 100,
  uniqueItems: true,
  description: 'Keys of roles of the same kind whose permissions this role has too.',
});
const key = (text: string) => ({ ...schemaKey(), description: text }) as unknown as TString;
const resourceRole = obj({
  name,
  description,
  permissions: arr(schemaKey(), { maxItems: 1000, uniqueItems: true, description: 'Action keys (or action group keys) of this resource.' }),
  extends: roleExtends,
});
const when = obj({ no_direct_roles_on_object: bool() }, [], {
  description: 'The derived role does not apply on an instance where the user holds any direct role.',
});
export const derivationSchema = obj(
  {
    role: key('The role given on an instance of this resource (a role of it, or a tenant role at instance scope).'),
    on_resource: key('The resource of the subject instance.'),
    from_role: key('The role a user holds on the subject instance.'),
    linked_by_relation: key('A relation of this resource whose subject is on_resource.'),
    when,
  },
  ['role', 'on_resource', 'from_role', 'linked_by_relation'],
);

const actionGroup = obj(
  {
    name,
    description,
    actions: arr(schemaKey(), { maxItems: 1000, uniqueItems: true, description: 'Action keys of this resource.' }),
  },
  ['actions'],
  { description: "A named set of the resource's actions: a role given the group may do each of them (behaviour section 23)." },
);
const resource = obj({
  name,
  description,
  attributes: anyObject(),
  actions,
  action_groups: mapOf(actionGroup, schemaKey()),
  relations: mapOf(schemaKey(), schemaKey()),
  roles: mapOf(resourceRole, schemaKey()),
  derivations: arr(derivationSchema, { maxItems: 1000 }),
});
const tenantPermission = str({
  pattern: '^[A-Za-z0-9_\\-]+:[A-Za-z0-9_\\-]+$',
  maxLength: 257,
  description: '"<resource>:<action>" or "<resource>:<action group>"',
});
const tenantRole = obj({
  name,
  description,
  permissions: arr(tenantPermission, { maxItems: 1000, uniqueItems: true }),
  extends: roleExtends,
});

/** Conditions (docs/behaviour.md section 17, docs/conditions.md). */
const attributeType = str({ enum: ATTRIBUTE_TYPES });
const userAttribute = obj({ type: attributeType, description }, ['type']);
const conditionSet = obj(
  {
    name,
    description,
    type: str({ enum: ['userset', 'resourceset'] as const, description: 'userset (default) or resourceset.' }),
    resource: key('A resource set: the resource of the file it is over.'),
    parent: key('A set (same type and resource) this one narrows.'),
    conditions: anyObject(),
  },
  [],
  { description: 'Permit\'s condition set: a tree of allOf / anyOf / not and {"user.x": {"equals": ...}} leaves.' },
);
const setRule = obj(
  {
    user_set: str({ minLength: 1, maxLength: 256 }),
    permission: tenantPermission,
    resource_set: str({ minLength: 1, maxLength: 256 }),
    is_role: bool(),
    is_resource: bool(),
  },
  ['user_set', 'permission', 'resource_set'],
);

/**
 * Elements configs (docs/behaviour.md sections 7 and 11): an approval flow over resources, and who reviews
 * at which level. Their webhooks are not here (a bearer token and the webhook secret are
 * secrets; files live in git): apply leaves a config's webhook as it is.
 */
const elementsConfig = obj(
  {
    name,
    elements_type: str({
      enum: ELEMENTS_TYPES,
      description: 'operation_approval (an action on an instance) or access_request (a role).',
    }),
    settings: obj({
      resources: arr(schemaKey(), {
        maxItems: 100,
        uniqueItems: true,
        description:
          'Resources of the file this flow governs (each gets the managed actions operate / review and roles _Reviewer_ / _Approved_).',
      }),
    }),
    roles_to_levels: obj(
      Object.fromEntries(
        LEVELS.map((l) => [l, arr(schemaKey(), { maxItems: 100, uniqueItems: true, description: 'Tenant role keys of the file.' })]),
      ),
      [],
      { description: 'Tenant roles per review level; LEVEL_1 and LEVEL_2 review every request in their tenant.' },
    ),
  },
  ['elements_type'],
);

/**
 * Permit's proxy configs (docs/behaviour.md section 24): the URL-mapping rules `/allowed_url`
 * applies. No secret: the service keeps none.
 */
const proxyConfig = obj(
  {
    name,
    auth_mechanism: str({ enum: ['Bearer', 'Basic', 'Headers'], description: 'Kept as Permit keeps it; unused here (default Bearer).' }),
    mapping_rules: arr(mappingRule, {
      maxItems: 1000,
      description:
        'Permit\'s MappingRule: url (a {name} template, or with url_type "regex" an RE2 pattern matched at the start of the request URL), http_method, resource, action, priority, headers.',
    }),
  },
  [],
  { description: "Permit's proxy config as a holder of URL-mapping rules (its secret is not in files)." },
);

export const policySchema = obj(
  {
    $schema: str({ maxLength: 2048 }),
    resources: mapOf(resource, schemaKey()),
    roles: mapOf(tenantRole, schemaKey()),
    user_attributes: mapOf(userAttribute, schemaKey()),
    condition_sets: mapOf(conditionSet, schemaKey()),
    set_rules: arr(setRule, { maxItems: 10000 }),
    elements_configs: mapOf(elementsConfig, schemaKey()),
    proxy_configs: mapOf(proxyConfig, schemaKey()),
  },
  [],
  {
    title: 'graph-authz policy',
    description:
      "An environment's own schema: resources (actions, roles, relations, derivations, attributes), tenant roles, user attributes, condition sets, set rules, elements configs (without their webhooks) and proxy configs (URL-mapping rules, without secrets). Schema the service makes by itself (group grants' relations and derivations, elements configs' actions and roles) is not written here.",
  },
);

export type PolicyFile = Static<typeof policySchema>;
export type PolicyResource = Static<typeof resource>;
export type PolicyDerivation = Static<typeof derivationSchema>;

/** The document served at /v2/policy.schema.json. */
export const policyJsonSchema = () => ({
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'graph-authz-policy.schema.json',
  ...policySchema,
});
