import type { RouteSpec } from '../../http/routeTable';
import { route } from '../../http/routeTable';
import { arr, bool, freeObject, int, obj, PROJ_ENV_PARAMS, str } from '../../http/schema';
import { policyJsonSchema, policySchema } from './format';
import type { PolicyService } from './service';

const base = '/v2/schema/:proj_id/:env_id/policy';
const change = obj(
  {
    op: str({ enum: ['create', 'update', 'delete'] }),
    kind: str({
      enum: [
        'resource',
        'action',
        'action_group',
        'relation',
        'resource_role',
        'role',
        'derivation',
        'user_attributes',
        'condition_set',
        'set_rule',
        'elements_config',
        'proxy_config',
      ],
    }),
    key: str(),
    resource: str(),
    name: str(),
    fields: arr(str()),
    in_use: obj({ facts: int(), what: str() }, ['facts', 'what']),
  },
  ['op', 'kind', 'key'],
);
const planAnswer = obj({ changed: bool(), applied: bool(), changes: arr(change) }, ['changed', 'applied', 'changes']);
/** A JSON Schema document (draft-07) as served at /v2/policy.schema.json. */
const jsonSchemaDocument = obj(
  {
    $schema: str(),
    $id: str(),
    title: str(),
    description: str(),
    type: str(),
    properties: freeObject(),
    required: arr(str()),
    additionalProperties: bool(),
  },
  ['$schema', 'type', 'properties'],
  { additionalProperties: true },
);
const applyQuery = obj({
  // prune: remove schema that facts still use, with those facts; dry_run: answer the plan, change nothing.
  prune: bool(),
  dry_run: bool(),
});

const tag = 'Policy';
const schemaDoc = policyJsonSchema();

/** Policy as code (docs/behaviour.md section 16): the policy file's JSON Schema, export, plan and apply. */
export const policyRoutes: RouteSpec<PolicyService>[] = [
  route({
    method: 'GET',
    path: '/v2/policy.schema.json',
    auth: 'public',
    tag,
    summary: 'The JSON Schema of policy files (for editors)',
    schemas: { response: jsonSchemaDocument },
    handler: async () => schemaDoc,
  }),
  route({
    method: 'GET',
    path: base,
    auth: 'env',
    tag,
    summary: "The environment's own schema as a policy file (managed schema left out)",
    schemas: { params: PROJ_ENV_PARAMS, response: policySchema },
    handler: (r, svc) => svc.exportPolicy(r.scope),
  }),
  route({
    method: 'POST',
    path: `${base}/plan`,
    auth: 'env',
    tag,
    readOnly: true,
    summary: 'What applying this policy file would change',
    schemas: { params: PROJ_ENV_PARAMS, body: policySchema, response: planAnswer },
    handler: (r, svc) => svc.plan(r.scope, r.body),
  }),
  route({
    method: 'PUT',
    path: base,
    auth: 'env',
    tag,
    summary: "Make the environment's own schema equal to this policy file (one transaction)",
    schemas: { params: PROJ_ENV_PARAMS, query: applyQuery, body: policySchema, response: planAnswer },
    handler: (r, svc) => (r.query.dry_run ? svc.plan(r.scope, r.body) : svc.apply(r.scope, r.body, r.query.prune === true)),
  }),
];
