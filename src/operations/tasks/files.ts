// Files of a File Upload field (spec v3 4.3 ".../fields/{fieldKey}/files to add and remove files",
// 4.1 rule 1; docs/tasks.md "Files").
import type { Operation } from '../define';
import { CREATE, READ, REMOVE, mixed } from '../define';
import { file, fileList } from '../shapes/tasks';
import { addFile, listFiles, removeFile } from '../../domain/tasks/fields';
import { fieldKeyInput, NO_FIELD_TOOL } from './fields';
import { fileInput } from './inputs';
import { intId } from '../schemas';
import { taskOperation, whereText, type WhereKind } from './where';

export const fileOperations = (w: WhereKind): Operation[] => [
  taskOperation(w, {
    id: 'listFieldFiles',
    fidelity: mixed('4.3', 'docs/tasks.md', 'request and response bodies beyond the names the spec gives (4.3: not shown)'),
    noTool: NO_FIELD_TOOL,
    method: 'GET',
    suffix: '/fields/:fieldKey/files',
    summary: `List the files of a File Upload field of ${whereText(w)}`,
    description: 'Returns {files}, oldest first. Only File Upload fields hold files (400 on fieldKey otherwise).',
    input: { ...fieldKeyInput() },
    output: fileList,
    refusals: ['403 FORBIDDEN', '404 FIELD_NOT_FOUND'],
    budget: 'standard',
    annotations: READ,
    handler: (ctx, input, t) => listFiles(ctx, t(), input.fieldKey),
  }),
  taskOperation(w, {
    id: 'addFieldFile',
    fidelity: mixed('4.3', 'docs/tasks.md', 'request and response bodies beyond the names the spec gives (4.3: not shown)'),
    noTool: NO_FIELD_TOOL,
    method: 'POST',
    suffix: '/fields/:fieldKey/files',
    summary: `Upload a file to a File Upload field of ${whereText(w)}`,
    description: 'Body {name, contentType, data (base64)}; at most 5 MB decoded. Answers 201 with the file; fires file_uploaded. Refused (409) while the task is halted.',
    input: { ...fieldKeyInput(), ...fileInput },
    output: file,
    refusals: ['403 FORBIDDEN', '404 FIELD_NOT_FOUND'],
    budget: 'standard',
    annotations: CREATE,
    status: 201,
    handler: (ctx, input, t) => addFile(ctx, t(), input.fieldKey, input),
  }),
  taskOperation(w, {
    id: 'removeFieldFile',
    fidelity: mixed('4.3', 'docs/tasks.md', 'request and response bodies beyond the names the spec gives (4.3: not shown)'),
    noTool: NO_FIELD_TOOL,
    method: 'DELETE',
    suffix: '/fields/:fieldKey/files/:fileId',
    summary: `Remove a file from a File Upload field of ${whereText(w)}`,
    description: 'Answers 204. Refused (409) while the task is halted.',
    input: { ...fieldKeyInput(), fileId: intId().describe('The file id (from the file list)') },
    refusals: ['403 FORBIDDEN', '404 FIELD_NOT_FOUND', '404 FILE_NOT_FOUND'],
    budget: 'standard',
    annotations: REMOVE,
    status: 204,
    handler: (ctx, input, t) => removeFile(ctx, t(), input.fieldKey, input.fileId),
  }),
];
