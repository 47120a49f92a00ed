// Files of a File Upload field (spec v3 4.3 ".../fields/{fieldKey}/files to add and remove files",
// 4.1 rule 1; docs/tasks.md "Files").
import type { Operation } from '../define';
import { CREATE, READ, REMOVE } from '../define';
import { file, fileList } from '../shapes/tasks';
import { addFile, listFiles, removeFile } from '../../domain/tasks/fields';
import { fieldOperation } from './fields';
import { fileInput } from './inputs';
import { intId } from '../input-kinds';
import { whereText, type WhereKind } from './where';

export const fileOperations = (w: WhereKind): Operation[] => [
  fieldOperation(w, {
    id: 'listFieldFiles',
    method: 'GET',
    suffix: '/files',
    summary: `List the files of a File Upload field of ${whereText(w)}`,
    description: 'Returns {files}, oldest first. Only File Upload fields hold files (400 on fieldKey otherwise).',
    input: () => ({}),
    output: fileList,
    annotations: READ,
    handler: (ctx, input, t) => listFiles(ctx, t(), input.fieldKey),
  }),
  fieldOperation(w, {
    id: 'addFieldFile',
    method: 'POST',
    suffix: '/files',
    summary: `Upload a file to a File Upload field of ${whereText(w)}`,
    description: 'Body {name, contentType, data (base64)}; at most 5 MB decoded. Answers 201 with the file; fires file_uploaded. Refused (409) while the task is halted.',
    input: fileInput,
    output: file,
    annotations: CREATE,
    status: 201,
    handler: (ctx, input, t) => addFile(ctx, t(), input.fieldKey, input),
  }),
  fieldOperation(w, {
    id: 'removeFieldFile',
    method: 'DELETE',
    suffix: '/files/:fileId',
    summary: `Remove a file from a File Upload field of ${whereText(w)}`,
    description: 'Answers 204. Refused (409) while the task is halted.',
    input: () => ({ fileId: intId().describe('The file id (from the file list)') }),
    refusals: ['404 FILE_NOT_FOUND'],
    annotations: REMOVE,
    status: 204,
    handler: (ctx, input, t) => removeFile(ctx, t(), input.fieldKey, input.fileId),
  }),
];
