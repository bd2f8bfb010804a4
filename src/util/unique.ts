/** The items in first-seen order, each once. */
export const unique = <T>(items: T[]): T[] => [...new Set(items)];
