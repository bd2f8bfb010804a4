#!/usr/bin/env node
/**
 * Generates clients/typescript/src/types.ts from the service's OpenAPI document (the one served
 * at /v2/openapi.json), so the client library's record types cannot drift from the server's
 * schemas. `npm run gen:client-types` rewrites the file; test/unit/client-types.test.ts
 * regenerates it in memory and fails when the committed file differs.
 *
 * NAMES maps each exported type to the schema it is: an operation's request body or its
 * success answer (`item` for the records of a list envelope).
 */
'use strict';

const F = '/v2/facts/{proj_id}/{env_id}';
const S = '/v2/schema/{proj_id}/{env_id}';
const RES = `${S}/resources/{resource}`;
const GROUP = `${S}/groups/{group_key}`;
const AR = '/v2/elements/{proj_id}/{env_id}/config/{elements_config_id}/access_requests';

const NAMES = [
  ['Project', 'get', '/v2/projects/{proj_id}', 'response'],
  ['Environment', 'get', '/v2/projects/{proj_id}/envs/{env_id}', 'response'],
  ['ApiKey', 'post', '/v2/api-key/{proj_id}/{env_id}', 'response'],
  ['Tenant', 'get', `${F}/tenants/{tenant_id}`, 'response'],
  ['TenantCreate', 'post', `${F}/tenants`, 'body'],
  ['TenantUpdate', 'patch', `${F}/tenants/{tenant_id}`, 'body'],
  ['User', 'get', `${F}/users/{user_id}`, 'response'],
  ['UserCreate', 'post', `${F}/users`, 'body'],
  ['UserUpdate', 'patch', `${F}/users/{user_id}`, 'body'],
  ['Resource', 'get', RES, 'response'],
  ['ResourceCreate', 'post', `${S}/resources`, 'body'],
  ['ResourceUpdate', 'patch', RES, 'body'],
  ['ResourceReplace', 'put', RES, 'body'],
  ['ResourceAction', 'get', `${RES}/actions/{action}`, 'response'],
  ['ResourceRole', 'get', `${RES}/roles/{role}`, 'response'],
  ['ResourceRoleCreate', 'post', `${RES}/roles`, 'body'],
  ['ResourceRoleUpdate', 'patch', `${RES}/roles/{role}`, 'body'],
  ['DerivationRule', 'post', `${RES}/roles/{role}/implicit_grants`, 'body'],
  ['RoleDerivation', 'post', `${RES}/roles/{role}/implicit_grants`, 'response'],
  ['Role', 'get', `${S}/roles/{role}`, 'response'],
  ['RoleCreate', 'post', `${S}/roles`, 'body'],
  ['RoleUpdate', 'patch', `${S}/roles/{role}`, 'body'],
  ['Relation', 'get', `${RES}/relations/{relation}`, 'response'],
  ['RelationCreate', 'post', `${RES}/relations`, 'body'],
  ['RelationUpdate', 'patch', `${RES}/relations/{relation}`, 'body'],
  ['ResourceInstance', 'get', `${F}/resource_instances/{instance_id}`, 'response'],
  ['ResourceInstanceCreate', 'post', `${F}/resource_instances`, 'body'],
  ['RoleAssignment', 'post', `${F}/role_assignments`, 'response'],
  ['RoleAssignmentCreate', 'post', `${F}/role_assignments`, 'body'],
  ['RoleAssignmentRemove', 'delete', `${F}/role_assignments`, 'body'],
  ['RelationshipTuple', 'post', `${F}/relationship_tuples`, 'response'],
  ['RelationshipTupleCreate', 'post', `${F}/relationship_tuples`, 'body'],
  ['RelationshipTupleDelete', 'delete', `${F}/relationship_tuples`, 'body'],
  ['Group', 'get', GROUP, 'response'],
  ['GroupCreate', 'post', `${S}/groups`, 'body'],
  ['GroupUpdate', 'patch', GROUP, 'body'],
  ['GroupRoleAssignment', 'post', `${GROUP}/roles`, 'body'],
  ['GroupResourceInstance', 'put', `${GROUP}/resource_instances`, 'body'],
  ['GroupMember', 'get', `${GROUP}/users`, 'item'],
  ['AttachedInstance', 'get', `${GROUP}/resource_instances`, 'item'],
  ['AccessRequest', 'get', `${AR}/{access_request_id}`, 'response'],
  ['AccessRequestItem', 'get', AR, 'item'],
  ['AccessRequestCreate', 'post', AR, 'body'],
  ['AccessRequestApprove', 'put', `${AR}/{access_request_id}/approve`, 'body'],
];

const ident = (name) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name));

/** An OpenAPI 3.0 Schema Object as a TypeScript type (indent: the current line's). */
function tsType(schema, indent) {
  if (!schema || typeof schema !== 'object') return 'unknown';
  let t;
  if (schema.$ref) t = schema.$ref.split('/').pop();
  else if (schema.enum) t = schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  else if (schema.oneOf || schema.anyOf) t = (schema.oneOf ?? schema.anyOf).map((s) => tsType(s, indent)).join(' | ');
  else if (schema.allOf) t = schema.allOf.map((s) => tsType(s, indent)).join(' & ');
  else if (schema.type === 'string') t = 'string';
  else if (schema.type === 'integer' || schema.type === 'number') t = 'number';
  else if (schema.type === 'boolean') t = 'boolean';
  else if (schema.type === 'array') {
    const item = tsType(schema.items, indent);
    t = /[|&]/.test(item) ? `Array<${item}>` : `${item}[]`;
  } else if (schema.type === 'object' || schema.properties) t = objectType(schema, indent);
  else t = 'unknown';
  if (schema.nullable && !/\bnull\b/.test(t)) t = `${t} | null`;
  return t;
}

function objectType(schema, indent) {
  const props = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const extra = schema.additionalProperties;
  if (!props.length) {
    if (extra && typeof extra === 'object') return `Record<string, ${tsType(extra, indent)}>`;
    return 'Record<string, unknown>';
  }
  const inner = `${indent}  `;
  const lines = props.map(([name, s]) => `${inner}${ident(name)}${required.has(name) ? '' : '?'}: ${tsType(s, inner)};`);
  if (extra && typeof extra === 'object') lines.push(`${inner}[extra: string]: unknown;`);
  return `{\n${lines.join('\n')}\n${indent}}`;
}

function schemaOf(doc, name, method, path, part) {
  const op = doc.paths[path]?.[method];
  if (!op) throw new Error(`${name}: no operation ${method.toUpperCase()} ${path} in the OpenAPI document`);
  if (part === 'body') {
    const s = op.requestBody?.content?.['application/json']?.schema;
    if (!s) throw new Error(`${name}: ${method.toUpperCase()} ${path} takes no body`);
    return s;
  }
  const success = Object.entries(op.responses).find(([status]) => status.startsWith('2'));
  const s = success?.[1]?.content?.['application/json']?.schema;
  if (!s) throw new Error(`${name}: ${method.toUpperCase()} ${path} declares no success body`);
  if (part === 'item') {
    if (!s.properties?.data?.items) throw new Error(`${name}: ${method.toUpperCase()} ${path} answers no list envelope`);
    return s.properties.data.items;
  }
  return s;
}

/** The whole text of types.ts for an OpenAPI document. */
function renderTypes(doc) {
  const out = [
    "// Generated by scripts/gen-client-types.cjs from the service's /v2/openapi.json: do not edit.",
    '// Run `npm run gen:client-types` after changing a route schema; a test fails when this file drifts.',
    '',
    '/** Free-form caller data kept as sent. */',
    'export type Attributes = Record<string, unknown>;',
  ];
  for (const [name, method, path, part] of NAMES) {
    out.push(
      '',
      `/** ${part === 'body' ? 'Body of' : part === 'item' ? 'A record listed by' : 'Answer of'} ${method.toUpperCase()} ${path} */`,
    );
    out.push(`export type ${name} = ${tsType(schemaOf(doc, name, method, path, part), '')};`);
  }
  return `${out.join('\n')}\n`;
}

module.exports = { renderTypes, NAMES };

if (require.main === module) {
  // The document as the service serves it, built from the compiled route tables (no database).
  const { resolve } = require('node:path');
  const { writeFileSync } = require('node:fs');
  const root = resolve(__dirname, '..');
  const dist = (p) => require(resolve(root, 'dist/src', p));
  const doc = dist('routeTables').servedDocument();
  const file = resolve(root, 'clients/typescript/src/types.ts');
  writeFileSync(file, renderTypes(doc));
  process.stdout.write(`wrote ${file}\n`);
  process.exit(0);
}
