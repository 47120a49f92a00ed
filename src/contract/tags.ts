// The areas of the operation table: each operation's `tag`, with what the area
// holds. OpenAPI lists them in this order.
export const TAGS: Record<string, string> = {
  Workspace: 'The key and the workspace it belongs to (spec v3 2.3, 4.2, 4.5).',
  People: 'Members and groups of the workspace (spec v3 2.6, 4.5).',
  Tags: 'Tags with their usage counts (spec v3 2.6, 4.5).',
  Templates: 'Templates: versions, documents, permissions, archive, checklist upgrades (spec v3 2.5, 4.4).',
  'Template drafts': 'Stored, uncommitted template documents (spec v3 4.4 rule 4).',
  'Template schema': 'The template document format, content types, operators and due-date scenarios (spec v3 4.4 rule 4).',
  Checklists: 'Checklists started from templates: list, search, start, change, archive, share, tags (spec v3 4.7).',
  Tasks: 'Checklist tasks: status, assignees, due dates, comments, snoozes, tags, fields, files, rows, activity (spec v3 4.3).',
  'Standalone tasks': 'Tasks outside any template, optionally attached to a checklist (spec v3 4.3, 4.7).',
  'Tasks grid': "The acting member's work across checklists, bulk snoozes and saved views (spec v3 2.6, 4.5, 4.6).",
  'Data Sets': 'Reference tables that feed Drop-Down, Multi-Choice, Sub-Tasks and Table fields (spec v3 4.7).',
  Schedules: 'Schedules that start checklists from a template on a recurrence (spec v3 2.1, 4.1 rule 6).',
  Webhooks: 'Webhook subscriptions (Administrators only; spec v3 4.7, 5.6, 6).',
};
