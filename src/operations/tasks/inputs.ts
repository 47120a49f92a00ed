// Input pieces shared by several task areas: an uploaded file and a position counted from 1.
import { z } from 'zod';
import { BASE64_PATTERN, nonEmptyText, text } from '../input-kinds';
import { lazy } from '../../lazy';

/** A file in a JSON body (spec v3 4.1 rule 1: bytes base64-encoded, never multipart). */
export const fileInput = lazy(() => ({
  // Declared as what always passes (src/domain/tasks/files.ts trims the name and reads the type in any case).
  name: nonEmptyText(255, 'must be the file name (a string)').meta({ pattern: '\\S' }).describe('File name'),
  contentType: text(255, 'must be a media type such as application/pdf').meta({ pattern: '^[a-z0-9][a-z0-9!#$&^_.+-]*/[a-z0-9][a-z0-9!#$&^_.+-]*$' }).optional().describe('Media type such as application/pdf; default application/octet-stream'),
  data: z.string({ error: 'must be the file bytes, base64-encoded' }).meta({ contentEncoding: 'base64', pattern: BASE64_PATTERN }).describe('The file bytes, base64-encoded; at most 5 MB decoded'),
}));

/** A row or column number of a Table field, from 1 (like the Table payload of 6.2). */
export const position = (what: string) =>
  z
    .number({ error: `must be an integer (${what})` })
    .int({ error: `must be an integer (${what})` })
    .min(1, { error: 'must be 1 or more' })
    .max(2147483647, { error: 'is too large' });
