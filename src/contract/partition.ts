// Where each input property of an operation travels over REST (path, query or
// body), used by the REST reader, the OpenAPI document and the MCP tool table alike.
// Computed once per operation by its compiled form (src/contract/compile.ts).
import { pathParams, type Operation } from '../operations/define';

export interface Partition {
  path: string[];
  query: string[];
  /** Body properties (empty when the whole body is `bodyAs`). */
  body: string[];
  bodyAs?: string;
  /** The route takes a JSON body at all. */
  hasBody: boolean;
  /** The path in OpenAPI form, `/v3/members/{memberId}`. */
  openApiPath: string;
}

export function partitionFor(op: Operation): Partition {
  const path = pathParams(op.path);
  const query = [...(op.query ?? [])];
  const body = op.bodyAs ? [] : Object.keys(op.input).filter((k) => !path.includes(k) && !query.includes(k));
  return {
    path,
    query,
    body,
    bodyAs: op.bodyAs,
    hasBody: op.method !== 'GET' && (op.bodyAs !== undefined || body.length > 0),
    openApiPath: op.path.replace(/:(\w+)/g, '{$1}'),
  };
}
