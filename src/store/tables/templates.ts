// The template library: folders and their rules, templates, versions, permissions and drafts
// (schema.sql version 1): declarations (store/columns.ts).
import { col, table } from '../columns';

export const foldersTable = table('folders', {
  id: col.id(),
  workspace_id: col.int(),
  name: col.text(),
  parent_id: col.intOrNull(),
});

export const folderRulesTable = table(
  'folder_rules',
  {
    folder_id: col.int(),
    assignee_type: col.oneOf<'TeamMember' | 'Group'>(),
    assignee_id: col.int(),
    permission: col.oneOf<'View' | 'Edit' | 'Deny'>(),
  },
  ['folder_id', 'assignee_type', 'assignee_id'],
);

export const templatesTable = table('templates', {
  id: col.id(),
  key: col.text(),
  workspace_id: col.int(),
  folder_id: col.intOrNull(),
  is_archived: col.intDefault(0),
  latest_version: col.intDefault(0),
  created_at: col.int(),
});

/** A version is immutable: the stored document carries every item's id (task and field keys). */
export const templateVersionsTable = table(
  'template_versions',
  {
    template_id: col.int(),
    version: col.int(),
    name: col.text(),
    description: col.textOrNull(),
    /** JSON template document with ids. */
    document: col.text(),
    created_at: col.int(),
    created_by: col.intOrNull(),
  },
  ['template_id', 'version'],
);

export const templatePermissionsTable = table(
  'template_permissions',
  {
    template_id: col.int(),
    assignee_type: col.oneOf<'AllUsers' | 'TeamMember' | 'Group'>(),
    /** 0 for AllUsers. */
    assignee_id: col.intDefault(0),
    permission: col.oneOf<'RunAndView' | 'ViewOnly' | 'RunAndViewAssigned' | 'ViewAssignedOnly'>(),
  },
  ['template_id', 'assignee_type', 'assignee_id'],
);

export const draftsTable = table('drafts', {
  id: col.id(),
  key: col.text(),
  workspace_id: col.int(),
  template_id: col.intOrNull(),
  base_version: col.intOrNull(),
  document: col.text(),
  created_by: col.intOrNull(),
  created_at: col.int(),
  updated_at: col.int(),
  /** No CHECK in the schema: these are the states the code writes. */
  commit_state: col.oneOfOrNull<'pending' | 'succeeded' | 'failed'>(),
  /** JSON. */
  commit_result: col.textOrNull(),
});
