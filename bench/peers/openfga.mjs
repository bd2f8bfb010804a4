// OpenFGA on PostgreSQL: built with `go install` at a pinned version, migrated with its own
// command, run with its defaults (HTTP API), loaded through Write and asked through Check,
// BatchCheck and ListObjects.
import { client, inBatches } from '../http.mjs';
import { goBinary, runOnce, startServer } from '../proc.mjs';

export const OPENFGA = { module: 'github.com/openfga/openfga', command: 'cmd/openfga', version: 'v1.22.1' };
export const OPENFGA_DEFAULTS =
  'datastore postgres; HTTP API; Write <= 100 tuples a call; BatchCheck <= 50 checks a call (a bulk of 100 is two calls); ' +
  'check query cache off; ListObjects <= 1000 results, 3 s deadline';

const direct = { directly_related_user_types: [{ type: 'user' }, { type: 'group', relation: 'member' }] };
const MODEL = {
  schema_version: '1.1',
  type_definitions: [
    { type: 'user' },
    { type: 'group', relations: { member: { this: {} } }, metadata: { relations: { member: direct } } },
    {
      type: 'repo',
      relations: {
        editor: { this: {} },
        viewer: { this: {} },
        push: { computedUserset: { relation: 'editor' } },
        pull: { union: { child: [{ computedUserset: { relation: 'editor' } }, { computedUserset: { relation: 'viewer' } }] } },
      },
      metadata: { relations: { editor: direct, viewer: direct } },
    },
  ],
};

// The "decided by conditions" case (bench/dataset.mjs buildConditions), written after the other
// cases are measured: a second model, the same types plus Permit's sets and rules as conditions
// (CEL). A user's attributes live in the condition context of that user's membership tuple of the
// user set (no attributes, no tuple: a missing attribute makes the condition false); a repo's
// classification in the context of its rule tuples; the network comes with the check's context.
// "engineering-office" narrows "engineering" as an intersection with a conditional wildcard.
const computed = (relation) => ({ computedUserset: { relation } });
const CONDITIONS_MODEL = {
  schema_version: '1.1',
  type_definitions: [
    ...MODEL.type_definitions.filter((t) => t.type !== 'repo'),
    {
      type: 'userset',
      relations: {
        member: { this: {} },
        network: { this: {} },
        engineering: computed('member'),
        engineering_office: { intersection: { child: [computed('member'), computed('network')] } },
      },
      metadata: {
        relations: {
          member: { directly_related_user_types: [{ type: 'user', condition: 'in_engineering' }] },
          network: { directly_related_user_types: [{ type: 'user', wildcard: {}, condition: 'on_office_network' }] },
        },
      },
    },
    {
      type: 'repo',
      relations: {
        editor: { this: {} },
        viewer: { this: {} },
        rule_pull: { this: {} },
        rule_push: { this: {} },
        push: { union: { child: [computed('editor'), computed('rule_push')] } },
        pull: { union: { child: [computed('editor'), computed('viewer'), computed('rule_pull')] } },
      },
      metadata: {
        relations: {
          editor: direct,
          viewer: direct,
          rule_pull: { directly_related_user_types: [{ type: 'userset', relation: 'engineering', condition: 'internal_doc' }] },
          rule_push: { directly_related_user_types: [{ type: 'userset', relation: 'engineering_office', condition: 'internal_doc' }] },
        },
      },
    },
  ],
  conditions: {
    in_engineering: {
      name: 'in_engineering',
      expression: 'department == "engineering" && clearance >= 3.0',
      parameters: { department: { type_name: 'TYPE_NAME_STRING' }, clearance: { type_name: 'TYPE_NAME_DOUBLE' } },
    },
    on_office_network: {
      name: 'on_office_network',
      expression: 'network == "office"',
      parameters: { network: { type_name: 'TYPE_NAME_STRING' } },
    },
    internal_doc: {
      name: 'internal_doc',
      expression: 'classification == "internal"',
      parameters: { classification: { type_name: 'TYPE_NAME_STRING' } },
    },
  },
};

export async function startOpenFGA({ root, pgUri, httpPort, grpcPort, log }) {
  const bin = goBinary(root, OPENFGA, log);
  runOnce(bin, ['migrate', '--datastore-engine', 'postgres', '--datastore-uri', pgUri]);
  const server = await startServer(
    bin,
    [
      'run',
      '--datastore-engine',
      'postgres',
      '--datastore-uri',
      pgUri,
      '--http-addr',
      `127.0.0.1:${httpPort}`,
      '--grpc-addr',
      `127.0.0.1:${grpcPort}`,
      '--playground-enabled=false',
      '--metrics-enabled=false',
      '--log-level',
      'warn',
    ],
    { port: httpPort },
  );
  return { ...server, version: OPENFGA.version, api: client(`http://127.0.0.1:${httpPort}`, 'none', 16) };
}

export async function openfgaAdapter(api) {
  const { id: store } = await api('POST', '/stores', { name: 'bench' });
  let { authorization_model_id: model } = await api('POST', `/stores/${store}/authorization-models`, MODEL);
  const key = (q) => ({ user: `user:${q.user}`, relation: q.action, object: `repo:${q.resource.key}` });
  return {
    name: 'OpenFGA',
    async load(ds, { loaders }) {
      const tuples = [
        ...ds.nesting.map((n) => ({ user: `group:${n.child}#member`, relation: 'member', object: `group:${n.parent}` })),
        ...ds.groupGrants.map((g) => ({ user: `group:${g.group}#member`, relation: g.role, object: `repo:${g.repo}` })),
        ...ds.memberships.map((m) => ({ user: `user:${m.user}`, relation: 'member', object: `group:${m.group}` })),
        ...ds.direct.map((d) => ({ user: `user:${d.user}`, relation: d.role, object: `repo:${d.repo}` })),
      ];
      const unique = [...new Map(tuples.map((t) => [JSON.stringify(t), t])).values()];
      await inBatches(unique, 100, loaders, (tuple_keys) =>
        api('POST', `/stores/${store}/write`, { writes: { tuple_keys }, authorization_model_id: model }),
      );
      return unique.length;
    },
    async loadConditions(cds, { loaders }) {
      ({ authorization_model_id: model } = await api('POST', `/stores/${store}/authorization-models`, CONDITIONS_MODEL));
      const tuples = [
        { user: 'user:*', relation: 'network', object: 'userset:abac', condition: { name: 'on_office_network' } },
        ...[...cds.userAttributes].map(([u, a]) => ({
          user: `user:${u}`,
          relation: 'member',
          object: 'userset:abac',
          condition: { name: 'in_engineering', context: { department: a.department, clearance: a.clearance } },
        })),
        ...[...cds.repoAttributes].flatMap(([r, a]) =>
          ['pull', 'push'].map((action) => ({
            user: `userset:abac#${action === 'pull' ? 'engineering' : 'engineering_office'}`,
            relation: `rule_${action}`,
            object: `repo:${r}`,
            condition: { name: 'internal_doc', context: { classification: a.classification } },
          })),
        ),
      ];
      await inBatches(tuples, 100, loaders, (tuple_keys) =>
        api('POST', `/stores/${store}/write`, { writes: { tuple_keys }, authorization_model_id: model }),
      );
      return tuples.length;
    },
    async allowed(q, cached) {
      const r = await api('POST', `/stores/${store}/check`, {
        tuple_key: key(q),
        ...(q.context ? { context: q.context } : {}),
        authorization_model_id: model,
        consistency: cached ? 'MINIMIZE_LATENCY' : 'HIGHER_CONSISTENCY',
      });
      return r.allowed === true;
    },
    async bulk(qs) {
      const parts = [];
      for (let i = 0; i < qs.length; i += 50) parts.push(qs.slice(i, i + 50));
      const answers = await Promise.all(
        parts.map(async (part) => {
          const r = await api('POST', `/stores/${store}/batch-check`, {
            authorization_model_id: model,
            consistency: 'HIGHER_CONSISTENCY',
            checks: part.map((q, j) => ({ tuple_key: key(q), correlation_id: String(j) })),
          });
          return part.map((_, j) => r.result[String(j)]?.allowed === true);
        }),
      );
      return answers.flat();
    },
    async listObjects(user, action) {
      const r = await api('POST', `/stores/${store}/list-objects`, {
        authorization_model_id: model,
        type: 'repo',
        relation: action,
        user: `user:${user}`,
        consistency: 'HIGHER_CONSISTENCY',
      });
      return r.objects.map((o) => o.slice('repo:'.length));
    },
  };
}
