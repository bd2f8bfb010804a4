/**
 * Strings in Unicode code point order, as Cypher's ORDER BY and the walk extension order keys (a
 * list's pages, docs/behaviour.md section 13). JavaScript's `<` compares UTF-16 units, which differs
 * when a surrogate meets a unit at U+E000 or above at the first difference: `'😀' < 'ｚ'` is true,
 * though U+1F600 comes after U+FF5A.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let k = 0; k < n; k++) {
    const x = a.charCodeAt(k);
    const y = b.charCodeAt(k);
    if (x === y) continue;
    if (!isSurrogate(x) && !isSurrogate(y)) return x - y;
    // From the start of the code point that differs (the units before it are equal in both).
    const from = k > 0 && isHighSurrogate(a.charCodeAt(k - 1)) ? k - 1 : k;
    return a.codePointAt(from)! - b.codePointAt(from)!;
  }
  return a.length - b.length;
}

const isSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdfff;
const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
