// Reading the form bodies of the token, revocation and sign-in endpoints (RFC 6749 3.2:
// application/x-www-form-urlencoded), and the authorization request's query.
import type { Emulator } from '../emulator';
import { readBodyText } from '../transports/web/body';
import { invalidRequest } from './errors';

/** Far more than any OAuth form needs; a larger body is refused before it is held. */
export const FORM_LIMIT = 64 * 1024;

export type Params = Map<string, string>;

/**
 * The parameters, each at most once (RFC 6749 3.1: "MUST NOT be included more than once"). An
 * empty value counts as absent (3.1: "treated as if they were omitted").
 */
export function paramsOf(search: URLSearchParams): Params {
  const out: Params = new Map();
  const seen = new Set<string>();
  for (const [k, v] of search) {
    if (seen.has(k)) throw invalidRequest(`The parameter ${k} is sent more than once (RFC 6749 3.1).`);
    seen.add(k);
    if (v !== '') out.set(k, v);
  }
  return out;
}

/** A POST body in application/x-www-form-urlencoded, as the RFCs require of these endpoints. */
export async function readForm(req: Request, emu: Emulator): Promise<Params> {
  const type = req.headers.get('content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) {
    throw invalidRequest('Send the parameters as application/x-www-form-urlencoded (RFC 6749 3.2).');
  }
  return paramsOf(new URLSearchParams(await readBodyText(req, Math.min(FORM_LIMIT, emu.maxBodyBytes))));
}
