/** Rows of the list statements: `total` and a page of `data`. */
export function listOf<T>(rows: Record<string, unknown>[]): { total: number; data: T[] } {
  const row = rows[0];
  return { total: (row?.total as number) ?? 0, data: (row?.data as T[]) ?? [] };
}
