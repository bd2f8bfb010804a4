/** The `created_at` / `updated_at` stamp written with a record (ISO 8601, UTC). */
export const now = () => new Date().toISOString();
