// Task rows as stored (schema.sql `tasks`): checklist tasks and standalone tasks alike.
export interface TaskRow {
  id: number;
  key: string;
  workspace_id: number;
  checklist_id: number | null;
  attached_checklist_id: number | null;
  position: number;
  name: string;
  description: string | null;
  is_heading: number;
  is_stop: number;
  status: 'Incomplete' | 'Complete' | 'NotApplicable' | null;
  completed_at: number | null;
  completed_by: number | null;
  not_applicable_at: number | null;
  not_applicable_by: number | null;
  due_at: number | null;
  due_is_manual: number;
  is_assigned_exclusively: number;
  raised_by: number | null;
  created_at: number;
}
