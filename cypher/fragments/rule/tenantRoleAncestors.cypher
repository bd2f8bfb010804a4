// Rule step: role hierarchy at tenant scope. A tenant-level role has the permissions of every
// tenant-level role it extends, transitively (EXTENDS edges; never a cycle). (At instance scope
// the walk applies the hierarchy: fragments/rule/hierarchyStep.)
// An expression: [Role nodes] the ancestors of `tenantRole` (a Role node).
[(tenantRole)-[:EXTENDS*1..]->(ancestor:Role) | ancestor]
