// Which template fields link to a Data Set (spec v3 4.7), so a change to it can be weighed first.
import { dataSetConnectionShape } from '../shapes/data-sets';
import { connectionsOf } from '../../domain/datasets/links';
import { viewsOf } from '../../domain/datasets/lookup';
import { readableDataSet } from '../../domain/datasets/sets';
import { v3Connection } from '../../domain/datasets/v3';
import { listUnder } from './declare';

export const connectionOperations = [
  listUnder({
    id: 'listDataSetConnections',
    sub: 'connections',
    summary: 'Template fields linked to a Data Set',
    description: 'Every Drop-Down, Multi-Choice, Sub-Tasks and Table field of the latest template versions that links to this Data Set, with the view it shows (isViewMissing when that view was deleted).',
    item: dataSetConnectionShape,
    list: (ctx, key) => {
      const ds = readableDataSet(ctx, key);
      const views = viewsOf(ctx, ds.id);
      return { key: ds.key, all: connectionsOf(ctx, ds), map: (c: Parameters<typeof v3Connection>[0]) => v3Connection(c, views) };
    },
  }),
];
