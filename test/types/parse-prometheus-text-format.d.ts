/** The parser ships no types: it answers one object per metric family (prom2json's shape). */
declare module 'parse-prometheus-text-format' {
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
