/** The answer of a list statement (its one row: `total` and a page of `data`), or an empty page when it answered none. */
export function listOf<T>(rows: { total: number; data: T[] }[]): { total: number; data: T[] } {
  return rows[0] ?? { total: 0, data: [] };
}
