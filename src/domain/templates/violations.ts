// Violations and the validation result (spec v3 2.5): JSONPath into the sent
// document, a code to branch on, severity, and document reading order.
export type Severity = 'error' | 'warning';
export type PathPart = string | number;

export interface Violation {
  path: string;
  code: string;
  message: string;
  hint?: string;
  severity: Severity;
}

export interface ValidationResult {
  valid: boolean;
  errorCount: number;
  warningCount: number;
  violations: Violation[];
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `$.tasks[2].fields[0].regex`; keys that are not identifiers are quoted: `$['my key']`. */
export function jsonPath(parts: readonly PathPart[]): string {
  let out = '$';
  for (const p of parts) {
    if (typeof p === 'number') out += `[${p}]`;
    else if (IDENT.test(p)) out += `.${p}`;
    else out += `['${p.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
  }
  return out;
}

/** Collects violations with their raw paths, then answers them in reading order. */
export class ViolationList {
  private items: { parts: PathPart[]; v: Violation; seq: number }[] = [];

  add(parts: readonly PathPart[], code: string, message: string, severity: Severity = 'error', hint?: string): void {
    const v: Violation = { path: jsonPath(parts), code, message, severity };
    if (hint) v.hint = hint;
    this.items.push({ parts: [...parts], v, seq: this.items.length });
  }

  error(parts: readonly PathPart[], code: string, message: string, hint?: string): void {
    this.add(parts, code, message, 'error', hint);
  }

  warn(parts: readonly PathPart[], code: string, message: string, hint?: string): void {
    this.add(parts, code, message, 'warning', hint);
  }

  get errorCount(): number {
    return this.items.filter((i) => i.v.severity === 'error').length;
  }

  /** Sorted in the order a reader meets them in `doc` (keys in the order sent; a node before its children). */
  result(doc: unknown, schemaOrder: readonly string[] = []): ValidationResult {
    const seen = new Set<string>();
    const unique = this.items.filter((i) => {
      const k = `${i.v.path}\u0000${i.v.code}\u0000${i.v.message}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    unique.sort((a, b) => compareReading(doc, a.parts, b.parts, schemaOrder) || a.seq - b.seq);
    const violations = unique.map((i) => i.v);
    const errorCount = violations.filter((v) => v.severity === 'error').length;
    return { valid: errorCount === 0, errorCount, warningCount: violations.length - errorCount, violations };
  }
}

function compareReading(doc: unknown, a: PathPart[], b: PathPart[], schemaOrder: readonly string[]): number {
  let node: unknown = doc;
  for (let i = 0; ; i++) {
    if (i >= a.length || i >= b.length) return a.length - b.length;
    if (a[i] === b[i]) {
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[a[i] as string] : undefined;
      continue;
    }
    if (typeof a[i] === 'number' && typeof b[i] === 'number') return (a[i] as number) - (b[i] as number);
    const keys = node !== null && typeof node === 'object' && !Array.isArray(node) ? Object.keys(node) : [];
    return position(keys, String(a[i]), schemaOrder) - position(keys, String(b[i]), schemaOrder);
  }
}

/** Keys present come in the order sent; absent ones (missing required) after them, in schema order. */
function position(keys: string[], k: string, schemaOrder: readonly string[]): number {
  const i = keys.indexOf(k);
  if (i >= 0) return i;
  const s = schemaOrder.indexOf(k);
  return keys.length + (s >= 0 ? s : schemaOrder.length);
}
