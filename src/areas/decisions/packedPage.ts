import type { StatementRows } from '../../db/statements.generated';
import type { ListedObject } from './walk';

/** A list-objects row: the extension's (the page packed into one string) or the Cypher walk's (lists). */
export type ListRow = StatementRows['walk/listObjects'] | StatementRows['decisions/listObjects'];

/**
 * A list-objects page as the walk extension answers it (graphauthz.listObjects, ListObjects.java):
 * one string holding, for each object in key order, the index of its tenant in `tenants`, `:`, then
 * its key as `<length>:<key>` (UTF-16 code units, as Java counts them too) or `~` for none. One
 * string instead of a list of 191 keys and 191 indexes: Neo4j converts one value instead of 382, and
 * the driver decodes one (docs/benchmarks.md, "List-objects: the kernel's cursors and a packed page").
 * Throws on a string that is not such a page (a jar and a service that do not agree).
 */
export function unpackPage(page: string, tenants: readonly string[], type: string): ListedObject[] {
  const out: ListedObject[] = [];
  let i = 0;
  const n = page.length;
  while (i < n) {
    const colon = page.indexOf(':', i);
    if (colon < 0) throw new Error(`a packed list-objects page without its tenant at ${i}`);
    const tenant = tenants[Number(page.slice(i, colon))];
    if (tenant === undefined) throw new Error(`a packed list-objects page names tenant ${page.slice(i, colon)} of ${tenants.length}`);
    i = colon + 1;
    // A key the instance lacks (none is stored without one) is null, as the Cypher walk's list holds it.
    let key: string | null;
    if (page[i] === '~') {
      key = null;
      i += 1;
    } else {
      const sep = page.indexOf(':', i);
      const length = Number(page.slice(i, sep));
      if (sep < 0 || !Number.isInteger(length) || length < 0 || sep + 1 + length > n)
        throw new Error(`a packed list-objects page with a malformed key at ${i}`);
      key = page.slice(sep + 1, sep + 1 + length);
      i = sep + 1 + length;
    }
    out.push({ type, key: key as string, tenant });
  }
  return out;
}

/** The objects of a list-objects row, whichever walk answered it (the one reading of both shapes). */
export function objectsOfRow(row: ListRow, type: string): ListedObject[] {
  if ('page' in row) return unpackPage(row.page, row.tenants, type);
  const { keys, tenants, tenantOf } = row;
  const objects = new Array<ListedObject>(keys.length);
  for (let i = 0; i < keys.length; i++) objects[i] = { type, key: keys[i], tenant: tenants[tenantOf[i]] };
  return objects;
}
