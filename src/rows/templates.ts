// Template rows as stored (schema.sql `templates`, `template_versions`).
export interface TemplateRow {
  id: number;
  key: string;
  workspace_id: number;
  folder_id: number | null;
  is_archived: number;
  latest_version: number;
  created_at: number;
}

export interface TemplateVersionRow {
  template_id: number;
  version: number;
  name: string;
  description: string | null;
  document: string;
  created_at: number;
  created_by: number | null;
}
