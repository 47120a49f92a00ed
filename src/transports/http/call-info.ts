// What every HTTP transport reads off a request before routing: the CallInfo of the
// pipeline (request id, key, region, time zone, idempotency key). One reader for both
// the node fast path (node's header object) and the fetch path (Headers).
import type { IncomingHttpHeaders } from 'node:http';
import type { Region } from '../../context';
import type { CallInfo } from '../../pipeline';
import type { JournalMark } from '../../platform/journal';
import { requestIdFrom } from '../web/respond';

/** A header from node's IncomingHttpHeaders, joined like Headers.get joins repeats. */
export const headerValue = (raw: IncomingHttpHeaders, name: string): string | null => {
  const v = raw[name];
  return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
};

/** `header(name)` takes a lower-case name. The journal mark, when given, learns the request id. */
export function callInfoFrom(header: (name: string) => string | null, region: Region, sourceIp: string, pathAndQuery: string, journal?: JournalMark): CallInfo {
  const requestId = requestIdFrom(header('x-request-id'));
  if (journal) journal.requestId = requestId;
  return {
    requestId,
    apiKey: header('x-api-key'),
    region,
    sourceIp,
    timezoneHeader: header('x-svc-timezone'),
    idempotencyKey: header('idempotency-key'),
    transport: 'rest',
    pathAndQuery,
    journal,
  };
}
