/** How errors name the records that live under a resource (`Role of resource "doc"`). */
export const roleOf = (resource: string) => `Role of resource ${JSON.stringify(resource)}`;
export const relationOf = (resource: string) => `Relation of resource ${JSON.stringify(resource)}`;
