// Which MCP messages are cheap (spec v3 8): a batched request is one request,
// charged cheap only if every message in it is cheap.
import type { Operation } from '../../operations/define';

const CHEAP_METHODS = new Set(['initialize', 'ping', 'tools/list', 'resources/list', 'resources/read', 'prompts/list']);

interface Msg {
  method?: unknown;
  id?: unknown;
  params?: { name?: unknown };
}

export function isCheapMessage(m: Msg, toolOp: (name: string) => Operation | undefined): boolean {
  if (typeof m !== 'object' || m === null) return false;
  if (typeof m.method !== 'string') return true; // a response to the server
  if (m.method.startsWith('notifications/')) return true;
  if (CHEAP_METHODS.has(m.method)) return true;
  if (m.method === 'tools/call') {
    const op = typeof m.params?.name === 'string' ? toolOp(m.params.name) : undefined;
    return op?.budget === 'cheap';
  }
  return false;
}

export function bucketOf(body: unknown, toolOp: (name: string) => Operation | undefined): 'cheap' | 'standard' {
  const msgs = Array.isArray(body) ? body : [body];
  return msgs.length > 0 && msgs.every((m) => isCheapMessage(m as Msg, toolOp)) ? 'cheap' : 'standard';
}
