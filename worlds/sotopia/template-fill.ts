/** A template placeholder: `{name}`. */
const PLACEHOLDER = /\{([A-Za-z_][\w]*)\}/g;

/** The placeholders a template uses, in order of first appearance. */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]))];
}

/** Fills a template's placeholders (each occurrence; values are inserted verbatim). */
export function fillTemplate(text: string, values: Record<string, string>): string {
  return text.replace(PLACEHOLDER, (whole, key: string) => (key in values ? values[key] : whole));
}
