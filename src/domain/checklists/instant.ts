// Input instants (spec v3 4.1 rule 6) for checklist and standalone task bodies. One parser for
// the whole API: the task area's (`Z` = UTC, an offset is honoured, no offset = UTC).
import { z } from 'zod';
import { parseInstant } from '../tasks/field-values';

const MESSAGE = 'must be an ISO 8601 date and time such as 2026-03-02T09:00:00Z or 2026-03-02T10:00:00+01:00 (no offset means UTC)';

/** zod schema: an ISO 8601 string, turned into milliseconds. */
export const instantInput = () =>
  z
    .string({ error: MESSAGE })
    .refine((v) => parseInstant(v) !== null, { error: MESSAGE })
    .transform((v) => parseInstant(v)!);
