// @row {
//   records: {
//     id: string;
//     key: string;
//     name: string | null;
//     description: string | null;
//     email: string | null;
//     first_name: string | null;
//     last_name: string | null;
//     attributes_json: string | null;
//     permissions: string[] | null;
//     resource: string | null;
//     tenant: string | null;
//   }[];
// }
// The records of an environment with these ids (users, roles, resource roles, tenants, instances,
// relations), for the detailed lists (Permit's RoleAssignmentDetailedRead and
// RelationshipTupleDetailedRead name whole records, not only their keys). One seek of the
// (env, id) index per id.
UNWIND $ids AS wanted
MATCH (n:InEnv {env: $env, id: wanted})
RETURN collect(n {.id, .key, .name, .description, .email, .first_name, .last_name, .attributes_json,
                     permissions: coalesce(n.declared_permissions, n.permissions), .resource, .tenant}) AS records
