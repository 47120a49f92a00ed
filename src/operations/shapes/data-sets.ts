// Output shapes of the v3 Data Set routes (docs/data-sets.md), strict: a property the
// schema does not name is a contract bug.
import { z } from 'zod';
import { lazy } from '../../lazy';

const cell = lazy(() => z.union([z.string(), z.number(), z.boolean()]));

export const dataSetFieldShape = lazy(() => z.strictObject({
  key: z.guid(),
  name: z.string(),
  type: z.enum(['text', 'number', 'date', 'email', 'url', 'boolean']),
  description: z.string().optional(),
  position: z.number().int(),
}));

export const dataSetViewShape = lazy(() => z.strictObject({
  key: z.guid(),
  name: z.string(),
  isDefault: z.boolean(),
  filters: z.array(z.strictObject({ fieldKey: z.guid(), operator: z.string(), value: z.string().optional() })),
  sorts: z.array(z.strictObject({ fieldKey: z.guid(), direction: z.enum(['asc', 'desc']), position: z.number().int() })),
  hiddenFields: z.array(z.string()),
}));

const summary = lazy(() => ({
  key: z.guid(),
  slug: z.string().optional(),
  name: z.string(),
  source: z.enum(['organisation', 'system']),
  description: z.string().optional(),
  fieldCount: z.number().int(),
  recordCount: z.number().int(),
  createdDateTime: z.string().optional(),
  updatedDateTime: z.string().optional(),
  url: z.string(),
}));

export const dataSetSummaryShape = lazy(() => z.strictObject(summary()));
export const dataSetShape = lazy(() => z.strictObject({ ...summary(), fields: z.array(dataSetFieldShape()), views: z.array(dataSetViewShape()) }));

export const dataSetRecordShape = lazy(() => z.strictObject({ key: z.guid(), position: z.number().int(), values: z.record(z.string(), cell()) }));

export const dataSetConnectionShape = lazy(() => z.strictObject({
  templateKey: z.guid(),
  templateName: z.string(),
  taskKey: z.guid(),
  fieldKey: z.guid(),
  fieldLabel: z.string().optional(),
  fieldType: z.string(),
  viewName: z.string().optional(),
  viewKey: z.guid().optional(),
  isViewMissing: z.boolean(),
}));

export const pageOf = <T extends z.ZodType>(item: T) => z.strictObject({ items: z.array(item), nextCursor: z.string().optional(), hasMore: z.boolean(), total: z.number().int() });

export const bulkResultShape = lazy(() => z.strictObject({ mode: z.enum(['append', 'replace']), created: z.number().int(), recordCount: z.number().int() }));
export const importResultShape = lazy(() => z.strictObject({ status: z.literal('complete'), dataSet: dataSetShape() }));

/** The `templates` of a 409 CONFLICT refusing to delete a Data Set (or one of its fields) that template fields use (legacy 4.8, 7). */
export const linkedTemplatesDetail = lazy(() => ({
  templates: z
    .array(z.strictObject({ key: z.guid().describe('Template key'), name: z.string().describe('Template name') }))
    .describe('409 CONFLICT (linked): the templates whose fields use it; change or unlink them, or (a Data Set) delete with force=true.'),
}));
