// Template library folders and their permission rules (schema.sql `folders`, `folder_rules`; spec v3 5.7).
import type { Db } from '../store/open';
import { selectList, type RowOf } from '../store/columns';
import { foldersTable, type folderRulesTable } from '../store/tables/templates';

/** A folder as the finders read it: without its workspace (store/tables/templates.ts). */
export type FolderRow = Pick<RowOf<typeof foldersTable.columns>, (typeof FOLDER_COLUMNS)[number]>;

const FOLDER_COLUMNS = ['id', 'name', 'parent_id'] as const;
const FOLDER = selectList(foldersTable, FOLDER_COLUMNS);

/** A folder rule row as stored. */
export type FolderRuleRow = RowOf<typeof folderRulesTable.columns>;

export const folderRulesOf = (db: Db, folderId: number): FolderRuleRow[] => db.prepare<[number], FolderRuleRow>('SELECT * FROM folder_rules WHERE folder_id = ?').all(folderId);

export const folderById = (db: Db, id: number): FolderRow | undefined => db.prepare<[number], FolderRow>(`SELECT ${FOLDER} FROM folders WHERE id = ?`).get(id);

/** The oldest folder of the workspace with this name (compared without case). */
export const folderByName = (db: Db, workspaceId: number, name: string): FolderRow | undefined =>
  db.prepare<[number, string], FolderRow>(`SELECT ${FOLDER} FROM folders WHERE workspace_id = ? AND lower(name) = lower(?) ORDER BY id LIMIT 1`).get(workspaceId, name);

export const folderNameById = (db: Db, id: number): string | undefined => db.prepare<[number], { name: string }>('SELECT name FROM folders WHERE id = ?').get(id)?.name;
