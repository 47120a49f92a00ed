// The exact JSON writer for webhook payloads (spec v3 6 rules 3-4). Payload bytes
// are signed and compared byte for byte by integrators, so this writer, not
// JSON.stringify, decides every byte (docs/webhooks.md "Bytes"):
// - family A: indented with two spaces and "name": value, like Newtonsoft's
//   Formatting.Indented; empty arrays and objects written [] and {}; "\n" line ends.
// - family B: one line, no spaces.
// - both: nulls are written (never dropped); inside strings, every non-ASCII
//   character and the HTML-sensitive & < > " ' are written as \uXXXX with
//   lowercase hex (astral characters as two escaped UTF-16 halves), so the
//   body is pure ASCII. Control characters use \b \f \n \r \t or \u00XX.
export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };

const SHORT: Record<string, string> = { '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\' };

const hex4 = (code: number) => '\\u' + code.toString(16).padStart(4, '0');

export function escapeString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    const code = s.charCodeAt(i);
    if (SHORT[ch]) out += SHORT[ch];
    else if (code < 0x20 || code > 0x7e || ch === '&' || ch === '<' || ch === '>' || ch === '"' || ch === "'") out += hex4(code);
    else out += ch;
  }
  return out + '"';
}

function scalar(v: JsonValue): string | undefined {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return 'null';
    return String(v);
  }
  if (typeof v === 'string') return escapeString(v);
  return undefined;
}

/** Family A: indented, two spaces. */
export function writeIndented(v: JsonValue, indent = ''): string {
  const s = scalar(v);
  if (s !== undefined) return s;
  const inner = indent + '  ';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return '[\n' + v.map((x) => inner + writeIndented(x, inner)).join(',\n') + '\n' + indent + ']';
  }
  const entries = Object.entries(v as Record<string, JsonValue>).filter(([, x]) => x !== undefined);
  if (entries.length === 0) return '{}';
  return '{\n' + entries.map(([k, x]) => inner + escapeString(k) + ': ' + writeIndented(x, inner)).join(',\n') + '\n' + indent + '}';
}

/** Family B: one line. */
export function writeCompact(v: JsonValue): string {
  const s = scalar(v);
  if (s !== undefined) return s;
  if (Array.isArray(v)) return '[' + v.map(writeCompact).join(',') + ']';
  const entries = Object.entries(v as Record<string, JsonValue>).filter(([, x]) => x !== undefined);
  return '{' + entries.map(([k, x]) => escapeString(k) + ':' + writeCompact(x)).join(',') + '}';
}

/** Payload timestamps (both families, spec v3 6 rule 6: never v3's Z): UTC with offset +00:00; fractional seconds only when not zero, trailing zeros trimmed. */
export function offsetTime(ms: number | null | undefined, withOffset = true): string | null {
  if (ms === null || ms === undefined) return null;
  const iso = new Date(ms).toISOString(); // 2024-05-01T10:00:00.120Z
  const frac = iso.slice(20, 23).replace(/0+$/, '');
  return iso.slice(0, 19) + (frac ? '.' + frac : '') + (withOffset ? '+00:00' : '');
}

