// Every table of the migrated schema, declared (store/columns.ts): test/columns.test.ts compares
// this list with the schema's tables and each declaration with PRAGMA table_info.
import type { Columns, Table } from '../columns';
import { checklistNotificationsTable, checklistsTable, upgradeJobsTable } from './checklists';
import { dataSetFieldsTable, dataSetRecordsTable, dataSetRemovedViewsTable, dataSetsTable, dataSetViewsTable } from './datasets';
import { legacyContentsTable, legacyTaskContentsTable } from './legacy';
import { gridOpenAssignmentsTable, myWorkDefaultsTable, savedViewsTable } from './my-work';
import { oauthClientsTable, oauthGrantsTable, oauthTokensTable } from './oauth';
import { apiKeysTable, groupMembersTable, groupsTable, membersTable, workspacesTable } from './people';
import { changeLogStateTable, changeLogTable, checkpointsTable, idempotencyTable, settingsTable } from './platform';
import { scheduleRunsTable, schedulesTable } from './schedules';
import { tagAssignmentsTable, tagsTable } from './tags';
import { activityTable, commentsTable, fieldValuesTable, filesTable, snoozesTable, taskAssigneesTable, tasksTable } from './tasks';
import { folderRulesTable, foldersTable, templatePermissionsTable, templatesTable, templateVersionsTable, draftsTable } from './templates';
import { deliveriesTable, eventsTable, webhooksTable } from './webhooks';

/** Every declaration, in schema.sql's order. */
export const declaredTables: readonly Table<Columns>[] = [
  workspacesTable,
  membersTable,
  groupsTable,
  groupMembersTable,
  apiKeysTable,
  foldersTable,
  folderRulesTable,
  templatesTable,
  templateVersionsTable,
  templatePermissionsTable,
  draftsTable,
  checklistsTable,
  tasksTable,
  taskAssigneesTable,
  fieldValuesTable,
  filesTable,
  commentsTable,
  snoozesTable,
  activityTable,
  tagsTable,
  tagAssignmentsTable,
  dataSetsTable,
  dataSetFieldsTable,
  dataSetRecordsTable,
  dataSetViewsTable,
  webhooksTable,
  eventsTable,
  deliveriesTable,
  idempotencyTable,
  settingsTable,
  schedulesTable,
  savedViewsTable,
  scheduleRunsTable,
  legacyTaskContentsTable,
  legacyContentsTable,
  upgradeJobsTable,
  checklistNotificationsTable,
  dataSetRemovedViewsTable,
  gridOpenAssignmentsTable,
  myWorkDefaultsTable,
  oauthClientsTable,
  oauthGrantsTable,
  oauthTokensTable,
  checkpointsTable,
  changeLogTable,
  changeLogStateTable,
];
