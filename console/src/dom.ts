/** Small DOM helpers: every text goes in through textContent (no HTML built from data). */
export const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string | null | undefined)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

export function clear(e: HTMLElement, ...children: (Node | string)[]): void {
  e.replaceChildren(...children);
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
