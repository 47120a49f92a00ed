-- The one source of the emulator's schema.
-- Each "-- version: N" block is applied once, in order, to a database whose
-- PRAGMA user_version is below N (src/store/open.ts). Released blocks are never
-- edited: a change is a new block, so a file database from an older release is
-- migrated, never dropped. Timestamps are integer milliseconds since the epoch (UTC).

-- version: 1

-- ── workspaces, people, keys ─────────────────────────────────────────────
CREATE TABLE workspaces (
  id            INTEGER PRIMARY KEY,
  key           TEXT NOT NULL UNIQUE,            -- teamId (GUID)
  name          TEXT NOT NULL,
  region        TEXT NOT NULL CHECK (region IN ('US','EU')),
  is_enterprise INTEGER NOT NULL DEFAULT 0,
  anonymous_member_id INTEGER,                   -- the member a workspace key acts through
  created_at    INTEGER NOT NULL
);

CREATE TABLE members (
  id           INTEGER PRIMARY KEY,
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
  first_name   TEXT,
  last_name    TEXT,
  email        TEXT,
  role         TEXT NOT NULL CHECK (role IN ('Administrator','Member','Guest')),
  is_active    INTEGER NOT NULL DEFAULT 1,
  is_anonymous INTEGER NOT NULL DEFAULT 0,
  is_removed   INTEGER NOT NULL DEFAULT 0,       -- left the workspace: keeps name, loses email in references
  time_zone    TEXT,                             -- profile zone (IANA)
  rights       TEXT NOT NULL DEFAULT '[]',       -- JSON array: Checklist.Creator, Template.Creator, Task.Creator, ...
  created_at   INTEGER NOT NULL
);
CREATE INDEX members_ws ON members(workspace_id);

CREATE TABLE groups (
  id           INTEGER PRIMARY KEY,
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
  name         TEXT NOT NULL,
  created_at   INTEGER NOT NULL
);
CREATE INDEX groups_ws ON groups(workspace_id);

CREATE TABLE group_members (
  group_id  INTEGER NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
  member_id INTEGER NOT NULL REFERENCES members(id),
  PRIMARY KEY (group_id, member_id)
);
CREATE INDEX group_members_member ON group_members(member_id);

CREATE TABLE api_keys (
  id           INTEGER PRIMARY KEY,
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
  name         TEXT NOT NULL,
  key_hash     TEXT NOT NULL UNIQUE,             -- SHA-256 hex of the key; the key itself is never stored
  member_id    INTEGER REFERENCES members(id),   -- NULL: acts as the workspace
  expires_on   TEXT,                             -- 'YYYY-MM-DD'; the key works until the end of that day UTC
  revoked_at   INTEGER,
  created_at   INTEGER NOT NULL
);

-- ── library: folders and their permission rules ──────────────────────────
CREATE TABLE folders (
  id           INTEGER PRIMARY KEY,
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
  name         TEXT NOT NULL,
  parent_id    INTEGER REFERENCES folders(id)
);

CREATE TABLE folder_rules (
  folder_id     INTEGER NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
  assignee_type TEXT NOT NULL CHECK (assignee_type IN ('TeamMember','Group')),
  assignee_id   INTEGER NOT NULL,
  permission    TEXT NOT NULL CHECK (permission IN ('View','Edit','Deny')),
  PRIMARY KEY (folder_id, assignee_type, assignee_id)
);

-- ── templates ────────────────────────────────────────────────────────────
CREATE TABLE templates (
  id             INTEGER PRIMARY KEY,
  key            TEXT NOT NULL UNIQUE,
  workspace_id   INTEGER NOT NULL REFERENCES workspaces(id),
  folder_id      INTEGER REFERENCES folders(id),
  is_archived    INTEGER NOT NULL DEFAULT 0,
  latest_version INTEGER NOT NULL DEFAULT 0,
  created_at     INTEGER NOT NULL
);
CREATE INDEX templates_ws ON templates(workspace_id);

-- A version is immutable: the stored document carries every item's id (task and field keys).
CREATE TABLE template_versions (
  template_id   INTEGER NOT NULL REFERENCES templates(id),
  version       INTEGER NOT NULL,
  name          TEXT NOT NULL,
  description   TEXT,
  document      TEXT NOT NULL,                   -- JSON template document with ids
  created_at    INTEGER NOT NULL,
  created_by    INTEGER REFERENCES members(id),
  PRIMARY KEY (template_id, version)
);

CREATE TABLE template_permissions (
  template_id   INTEGER NOT NULL REFERENCES templates(id) ON DELETE CASCADE,
  assignee_type TEXT NOT NULL CHECK (assignee_type IN ('AllUsers','TeamMember','Group')),
  assignee_id   INTEGER NOT NULL DEFAULT 0,      -- 0 for AllUsers
  permission    TEXT NOT NULL CHECK (permission IN ('RunAndView','ViewOnly','RunAndViewAssigned','ViewAssignedOnly')),
  PRIMARY KEY (template_id, assignee_type, assignee_id)
);

CREATE TABLE drafts (
  id            INTEGER PRIMARY KEY,
  key           TEXT NOT NULL UNIQUE,
  workspace_id  INTEGER NOT NULL REFERENCES workspaces(id),
  template_id   INTEGER REFERENCES templates(id),
  base_version  INTEGER,
  document      TEXT NOT NULL,
  created_by    INTEGER REFERENCES members(id),
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  commit_state  TEXT,                            -- NULL, 'pending', 'succeeded', 'failed'
  commit_result TEXT                             -- JSON
);

-- ── checklists and tasks ────────────────────────────────────────────────
CREATE TABLE checklists (
  id               INTEGER PRIMARY KEY,
  key              TEXT NOT NULL UNIQUE,
  workspace_id     INTEGER NOT NULL REFERENCES workspaces(id),
  template_id      INTEGER NOT NULL REFERENCES templates(id),
  template_version INTEGER NOT NULL,
  name             TEXT NOT NULL,
  status           TEXT NOT NULL CHECK (status IN ('Scheduled','InProgress','Complete')),
  created_by       INTEGER REFERENCES members(id),
  created_at       INTEGER NOT NULL,
  scheduled_at     INTEGER,
  started_at       INTEGER,
  completed_at     INTEGER,
  due_at           INTEGER,
  is_archived      INTEGER NOT NULL DEFAULT 0,
  share_token      TEXT,                         -- non-NULL while shared
  schedule_id      INTEGER,
  rebuilding       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checklists_ws ON checklists(workspace_id, template_id);

-- Checklist tasks (checklist_id set; key copied from the template task) and
-- standalone tasks (checklist_id NULL; key unique on its own).
CREATE TABLE tasks (
  id                      INTEGER PRIMARY KEY,   -- taskId in webhook payloads
  key                     TEXT NOT NULL,
  workspace_id            INTEGER NOT NULL REFERENCES workspaces(id),
  checklist_id            INTEGER REFERENCES checklists(id) ON DELETE CASCADE,
  attached_checklist_id   INTEGER REFERENCES checklists(id) ON DELETE SET NULL, -- standalone only
  position                INTEGER NOT NULL DEFAULT 0,
  name                    TEXT NOT NULL,
  description             TEXT,
  is_heading              INTEGER NOT NULL DEFAULT 0,
  is_stop                 INTEGER NOT NULL DEFAULT 0,
  status                  TEXT CHECK (status IN ('Incomplete','Complete','NotApplicable')),
  completed_at            INTEGER,
  completed_by            INTEGER REFERENCES members(id),
  not_applicable_at       INTEGER,
  not_applicable_by       INTEGER REFERENCES members(id),
  due_at                  INTEGER,
  due_is_manual           INTEGER NOT NULL DEFAULT 0,
  is_assigned_exclusively INTEGER NOT NULL DEFAULT 0,
  raised_by               INTEGER REFERENCES members(id), -- standalone only
  created_at              INTEGER NOT NULL
);
CREATE UNIQUE INDEX tasks_checklist_key ON tasks(checklist_id, key) WHERE checklist_id IS NOT NULL;
CREATE UNIQUE INDEX tasks_standalone_key ON tasks(key) WHERE checklist_id IS NULL;
CREATE INDEX tasks_ws ON tasks(workspace_id);
CREATE INDEX tasks_attached ON tasks(attached_checklist_id) WHERE attached_checklist_id IS NOT NULL;

CREATE TABLE task_assignees (
  task_id       INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  assignee_type TEXT NOT NULL CHECK (assignee_type IN ('TeamMember','Group')),
  assignee_id   INTEGER NOT NULL,
  PRIMARY KEY (task_id, assignee_type, assignee_id)
);
CREATE INDEX task_assignees_who ON task_assignees(assignee_type, assignee_id);

-- Field answers; the field's definition lives in the template version document
-- (or, for a standalone task, in tasks' own field list in standalone_fields).
CREATE TABLE field_values (
  task_id    INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  field_key  TEXT NOT NULL,
  value      TEXT,                               -- JSON
  updated_at INTEGER NOT NULL,
  updated_by INTEGER REFERENCES members(id),
  PRIMARY KEY (task_id, field_key)
);

CREATE TABLE files (
  id           INTEGER PRIMARY KEY,
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
  task_id      INTEGER REFERENCES tasks(id) ON DELETE CASCADE,
  field_key    TEXT,                             -- NULL for a comment attachment
  name         TEXT NOT NULL,
  content_type TEXT NOT NULL,
  data         BLOB NOT NULL,
  token        TEXT NOT NULL UNIQUE,             -- download url secret (not protected by the key)
  created_at   INTEGER NOT NULL,
  created_by   INTEGER REFERENCES members(id)
);

CREATE TABLE comments (
  id            INTEGER PRIMARY KEY,
  task_id       INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  author_id     INTEGER REFERENCES members(id),
  html          TEXT,
  text          TEXT NOT NULL DEFAULT '',
  mentions      TEXT NOT NULL DEFAULT '[]',      -- JSON array of {type,id,name}
  file_id       INTEGER REFERENCES files(id),
  created_at    INTEGER NOT NULL
);
CREATE INDEX comments_task ON comments(task_id);

CREATE TABLE snoozes (
  member_id INTEGER NOT NULL REFERENCES members(id),
  task_id   INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  until_at  INTEGER NOT NULL,
  PRIMARY KEY (member_id, task_id)
);

CREATE TABLE activity (
  id           INTEGER PRIMARY KEY,
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
  checklist_id INTEGER REFERENCES checklists(id) ON DELETE CASCADE,
  task_id      INTEGER REFERENCES tasks(id) ON DELETE CASCADE,
  member_id    INTEGER REFERENCES members(id),
  action       TEXT NOT NULL,
  text         TEXT NOT NULL,
  data         TEXT,                             -- JSON details
  created_at   INTEGER NOT NULL
);
CREATE INDEX activity_task ON activity(task_id);
CREATE INDEX activity_checklist ON activity(checklist_id);

-- ── tags ────────────────────────────────────────────────────────────────
CREATE TABLE tags (
  id           INTEGER PRIMARY KEY,
  key          TEXT NOT NULL UNIQUE,
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
  name         TEXT NOT NULL,
  other_count  INTEGER NOT NULL DEFAULT 0,       -- carriers the API does not reach (articles, files)
  created_at   INTEGER NOT NULL
);
CREATE UNIQUE INDEX tags_ws_name ON tags(workspace_id, name COLLATE NOCASE);

CREATE TABLE tag_assignments (
  id          INTEGER PRIMARY KEY,
  key         TEXT NOT NULL UNIQUE,              -- assignmentKey in payloads
  tag_id      INTEGER NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
  target_type TEXT NOT NULL CHECK (target_type IN ('checklist','task','template')),
  target_id   INTEGER NOT NULL,
  UNIQUE (tag_id, target_type, target_id)
);
CREATE INDEX tag_assignments_target ON tag_assignments(target_type, target_id);

-- ── data sets ───────────────────────────────────────────────────────────
CREATE TABLE data_sets (
  id           INTEGER PRIMARY KEY,
  key          TEXT NOT NULL UNIQUE,
  workspace_id INTEGER REFERENCES workspaces(id), -- NULL: system set shared by all workspaces
  slug         TEXT,
  name         TEXT NOT NULL,
  description  TEXT,
  source       TEXT NOT NULL CHECK (source IN ('organisation','system')),
  folder_id    INTEGER REFERENCES folders(id),
  created_at   INTEGER,
  updated_at   INTEGER
);

CREATE TABLE data_set_fields (
  id          INTEGER PRIMARY KEY,
  key         TEXT NOT NULL UNIQUE,
  data_set_id INTEGER NOT NULL REFERENCES data_sets(id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  type        TEXT NOT NULL CHECK (type IN ('text','number','date','email','url','boolean')),
  description TEXT,
  position    INTEGER NOT NULL
);

CREATE TABLE data_set_records (
  id          INTEGER PRIMARY KEY,
  key         TEXT NOT NULL UNIQUE,
  data_set_id INTEGER NOT NULL REFERENCES data_sets(id) ON DELETE CASCADE,
  position    INTEGER NOT NULL,
  vals        TEXT NOT NULL DEFAULT '{}',        -- JSON keyed by field key
  created_at  INTEGER NOT NULL
);
CREATE INDEX data_set_records_set ON data_set_records(data_set_id, position);

CREATE TABLE data_set_views (
  id           INTEGER PRIMARY KEY,
  key          TEXT NOT NULL UNIQUE,
  data_set_id  INTEGER NOT NULL REFERENCES data_sets(id) ON DELETE CASCADE,
  name         TEXT NOT NULL,
  is_default   INTEGER NOT NULL DEFAULT 0,
  filters      TEXT NOT NULL DEFAULT '[]',
  sorts        TEXT NOT NULL DEFAULT '[]',
  hidden_fields TEXT NOT NULL DEFAULT '[]'
);

-- ── webhooks: subscriptions, outbox events, deliveries ───────────────────
-- docs/webhooks.md. A subscription made through v3, the legacy API (v2) or the
-- emulator's forward option (event_type '*': every event of the workspace).
CREATE TABLE webhooks (
  id           INTEGER PRIMARY KEY,
  key          TEXT NOT NULL UNIQUE,             -- subscription id (GUID)
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
  api          TEXT NOT NULL CHECK (api IN ('v2','v3','emulator')),
  source       TEXT,                             -- legacy `source` label
  event_type   TEXT NOT NULL,
  target_url   TEXT NOT NULL,
  scope_type   TEXT,                             -- Template, Task, Workspace, Field
  template_key TEXT,
  task_key     TEXT,
  field_key    TEXT,
  secret       TEXT,
  is_active    INTEGER NOT NULL DEFAULT 1,
  created_by   INTEGER REFERENCES members(id),
  created_at   INTEGER NOT NULL
);
CREATE INDEX webhooks_ws_event ON webhooks(workspace_id, event_type);

-- The outbox: written in the transaction of the change that caused the event.
CREATE TABLE events (
  id           INTEGER PRIMARY KEY,
  key          TEXT NOT NULL UNIQUE,
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
  event_type   TEXT NOT NULL,
  subject      TEXT,                             -- JSON: what to build the body from
  actor_id     INTEGER,                          -- member the causing request acted as
  body         TEXT,                             -- exact payload bytes, built once
  state        TEXT NOT NULL DEFAULT 'pending',  -- pending, built, dropped, unmatched
  drop_reason  TEXT,
  created_at   INTEGER NOT NULL,
  processed_at INTEGER
);
CREATE INDEX events_ws ON events(workspace_id, id);

CREATE TABLE deliveries (
  id              INTEGER PRIMARY KEY,
  key             TEXT NOT NULL UNIQUE,
  event_id        INTEGER NOT NULL REFERENCES events(id),
  webhook_id      INTEGER REFERENCES webhooks(id) ON DELETE SET NULL,
  target_url      TEXT NOT NULL,
  status          TEXT NOT NULL DEFAULT 'pending', -- pending, delivered, failed, dropped, cancelled
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  last_status     INTEGER,
  last_error      TEXT,
  last_response   TEXT,                          -- first 2 KB of the last answer's body
  headers         TEXT,                          -- JSON of the headers sent
  attempt_log     TEXT NOT NULL DEFAULT '[]',    -- JSON array: {at, status, error, durationMs}
  replay_of       INTEGER REFERENCES deliveries(id),
  created_at      INTEGER NOT NULL,
  delivered_at    INTEGER
);
CREATE INDEX deliveries_due ON deliveries(status, next_attempt_at);
CREATE INDEX deliveries_event ON deliveries(event_id);

-- ── platform: idempotency, settings ─────────────────────────────────────
CREATE TABLE idempotency (
  workspace_id INTEGER NOT NULL,
  key          TEXT NOT NULL,
  fingerprint  TEXT NOT NULL,                    -- hash of the request it first answered
  state        TEXT NOT NULL,                    -- running, done
  status       INTEGER,
  body         TEXT,                             -- JSON of the first answer's body; NULL for 204
  headers      TEXT,                             -- JSON of the first answer's extra headers
  created_at   INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, key)
);
CREATE INDEX idempotency_created ON idempotency(created_at);

CREATE TABLE settings (
  name  TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

-- ── schedules and saved views (Tasks grid) ───────────────────────────────
CREATE TABLE schedules (
  id           INTEGER PRIMARY KEY,
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
  template_id  INTEGER NOT NULL REFERENCES templates(id),
  name         TEXT NOT NULL,
  data         TEXT NOT NULL DEFAULT '{}',
  created_at   INTEGER NOT NULL
);

CREATE TABLE saved_views (
  id           INTEGER PRIMARY KEY,
  key          TEXT NOT NULL UNIQUE,
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
  created_by   INTEGER REFERENCES members(id),
  type         TEXT NOT NULL,
  data         TEXT NOT NULL,
  created_at   INTEGER NOT NULL
);

-- version: 2
-- ── schedules (docs/schedules.md) ─────────────────────────────────────────
-- The v1 `schedules` table (never written by v1 code) is rebuilt with what a recurring
-- schedule needs, rows copied across; AUTOINCREMENT so a deleted schedule's or run's
-- integer id (spec v3 2.1) is never given again: checklists keep their schedule_id.
-- `data` holds the recurrence JSON. Runs are materialized a few ahead so each has its
-- id before it happens; `plan` numbers the series a change re-plans.
CREATE TABLE schedules_v2 (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
  template_id  INTEGER NOT NULL REFERENCES templates(id),
  name         TEXT NOT NULL,
  data         TEXT NOT NULL DEFAULT '{}',
  created_at   INTEGER NOT NULL,
  created_by   INTEGER REFERENCES members(id),
  time_zone    TEXT NOT NULL DEFAULT 'UTC',
  start_local  TEXT NOT NULL DEFAULT '',      -- wall clock in time_zone, YYYY-MM-DDTHH:mm:ss
  updated_at   INTEGER,
  plan         INTEGER NOT NULL DEFAULT 0,
  next_seq     INTEGER NOT NULL DEFAULT 0,    -- first occurrence not yet materialized
  is_ended     INTEGER NOT NULL DEFAULT 0     -- the series has no occurrence left to materialize
);
INSERT INTO schedules_v2 (id, workspace_id, template_id, name, data, created_at) SELECT id, workspace_id, template_id, name, data, created_at FROM schedules;
DROP TABLE schedules;
ALTER TABLE schedules_v2 RENAME TO schedules;
CREATE INDEX schedules_ws ON schedules(workspace_id, id);

CREATE TABLE schedule_runs (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  schedule_id  INTEGER NOT NULL REFERENCES schedules(id) ON DELETE CASCADE,
  plan         INTEGER NOT NULL,
  seq          INTEGER NOT NULL,                 -- occurrence number in the series, from 0
  scheduled_at INTEGER NOT NULL,                 -- the UTC instant
  local        TEXT NOT NULL,                    -- the same instant as wall clock in the schedule's zone
  status       TEXT NOT NULL CHECK (status IN ('Upcoming','Started','Skipped','Failed')),
  checklist_id INTEGER,                          -- no foreign key: a deleted checklist leaves the run's history
  started_at   INTEGER,
  skipped_at   INTEGER,
  skipped_by   INTEGER,
  reason       TEXT,
  UNIQUE (schedule_id, plan, seq)
);
CREATE INDEX schedule_runs_due ON schedule_runs(status, scheduled_at);
CREATE INDEX schedule_runs_schedule ON schedule_runs(schedule_id, scheduled_at);

-- version: 3
-- ── legacy integer ids (docs/legacy.md) ─────────────────────────────────
-- The legacy API addresses controls by integers: taskContentID names a control
-- (a template field key) within a workspace, contentID that control on one task.
-- Handed out the first time a legacy answer shows them and kept from then on,
-- so they are stable across restarts. (Checklists and tasks use their row ids.)
CREATE TABLE legacy_task_contents (
  id           INTEGER PRIMARY KEY,              -- taskContentID
  workspace_id INTEGER NOT NULL REFERENCES workspaces(id),
  field_key    TEXT NOT NULL COLLATE NOCASE,
  UNIQUE (workspace_id, field_key)
);

CREATE TABLE legacy_contents (
  id        INTEGER PRIMARY KEY,                 -- contentID
  task_id   INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  field_key TEXT NOT NULL COLLATE NOCASE,
  UNIQUE (task_id, field_key)
);

-- version: 4

-- ── template upgrades (docs/upgrades.md) ─────────────────────────────────
-- The durable queue of checklist rebuilds (spec v3 3 "Checklist upgrade", 4.4
-- "Upgrade checklists"). A row is written in the transaction of the 202; the
-- worker rebuilds one checklist per transaction, so a crash leaves it queued.
CREATE TABLE upgrade_jobs (
  id             INTEGER PRIMARY KEY,
  workspace_id   INTEGER NOT NULL REFERENCES workspaces(id),
  template_id    INTEGER NOT NULL REFERENCES templates(id),
  checklist_id   INTEGER NOT NULL REFERENCES checklists(id) ON DELETE CASCADE,
  target_version INTEGER NOT NULL,
  requested_by   INTEGER REFERENCES members(id),
  request_id     TEXT,                           -- the X-Request-Id of the request that queued it
  state          TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued','done','failed')),
  run_at         INTEGER NOT NULL,               -- emulator clock: not rebuilt before this
  error          TEXT,
  created_at     INTEGER NOT NULL,
  finished_at    INTEGER
);
CREATE INDEX upgrade_jobs_due ON upgrade_jobs(state, run_at, template_id, id);
CREATE INDEX upgrade_jobs_checklist ON upgrade_jobs(checklist_id);

-- Custom notifications added to one checklist (not to its template): kept by an
-- upgrade (spec v3 4.4 carry table) unless the task they watch is removed.
CREATE TABLE checklist_notifications (
  id           INTEGER PRIMARY KEY,
  checklist_id INTEGER NOT NULL REFERENCES checklists(id) ON DELETE CASCADE,
  trigger      TEXT NOT NULL CHECK (trigger IN ('taskCompleted','taskDue','checklistCompleted')),
  task_key     TEXT,
  recipients   TEXT NOT NULL DEFAULT '[]',       -- JSON array of {type, id}
  subject      TEXT NOT NULL,
  message      TEXT,
  created_by   INTEGER REFERENCES members(id),
  created_at   INTEGER NOT NULL
);
CREATE INDEX checklist_notifications_checklist ON checklist_notifications(checklist_id);

-- The checklist parameters sent when the checklist started (JSON object by
-- parameter name, values as stored): a field given a valueFrom binding by a
-- later version takes its value from here when the checklist is upgraded.
ALTER TABLE checklists ADD COLUMN parameters TEXT;

-- version: 5
-- Data Sets (issue 13, docs/data-sets.md): names of views deleted or renamed, so
-- templates whose fields showed them get a data_set_link_removed warning instead of
-- a data_set_view_not_found error (legacy spec 4.8 "those templates then show a link warning").
CREATE TABLE data_set_removed_views (
  data_set_id INTEGER NOT NULL REFERENCES data_sets(id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  removed_at  INTEGER NOT NULL
);
CREATE INDEX data_set_removed_views_set ON data_set_removed_views(data_set_id);
-- A revision per Data Set, changed by every record write whoever makes it, so the
-- view engine's parsed-records cache (src/domain/datasets/query.ts) knows when to reload.
ALTER TABLE data_sets ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;
CREATE TRIGGER data_set_records_rev_insert AFTER INSERT ON data_set_records BEGIN UPDATE data_sets SET rev = random() WHERE id = NEW.data_set_id; END;
CREATE TRIGGER data_set_records_rev_update AFTER UPDATE ON data_set_records BEGIN UPDATE data_sets SET rev = random() WHERE id = NEW.data_set_id; END;
CREATE TRIGGER data_set_records_rev_delete AFTER DELETE ON data_set_records BEGIN UPDATE data_sets SET rev = random() WHERE id = OLD.data_set_id; END;

-- version: 6
-- ── Tasks grid (docs/tasks-grid.md) ─────────────────────────────────────
-- The grid pages in SQL with keyset cursors over a workspace of millions of tasks, so
-- what it filters on is kept beside the rows by triggers, whoever writes the tasks.
-- grid_halted: the task is behind an incomplete stop task of its checklist (spec v3 2.4
-- isCurrentlyHalted, judged from stored state; a stop task a condition hides still halts here).
ALTER TABLE tasks ADD COLUMN grid_halted INTEGER NOT NULL DEFAULT 0;

CREATE INDEX tasks_open_stops ON tasks(checklist_id, position)
  WHERE is_stop = 1 AND is_heading = 0 AND coalesce(status, 'Incomplete') = 'Incomplete';

-- Open (incomplete, not heading) tasks in due-date order, no due date last: for the grid's
-- default sort, ascending and descending, by workspace and by checklist; covering what the
-- grid's counts read, so a count of every open task never touches the rows.
CREATE INDEX tasks_grid_due_asc ON tasks(workspace_id, grid_halted, coalesce(due_at, 9000000000000000), checklist_id, attached_checklist_id, due_at)
  WHERE is_heading = 0 AND coalesce(status, 'Incomplete') = 'Incomplete';
CREATE INDEX tasks_grid_due_desc ON tasks(workspace_id, grid_halted, coalesce(due_at, -1), checklist_id, attached_checklist_id, due_at)
  WHERE is_heading = 0 AND coalesce(status, 'Incomplete') = 'Incomplete';
CREATE INDEX tasks_grid_checklist ON tasks(checklist_id, grid_halted, due_at, workspace_id)
  WHERE is_heading = 0 AND coalesce(status, 'Incomplete') = 'Incomplete';
CREATE INDEX checklists_archived ON checklists(workspace_id) WHERE is_archived = 1;
CREATE INDEX tasks_grid_closed ON tasks(workspace_id, status, due_at) WHERE status IN ('Complete', 'NotApplicable');
CREATE INDEX tasks_standalone_ws ON tasks(workspace_id, attached_checklist_id) WHERE checklist_id IS NULL;

-- An older database gains the flag for the checklists it already holds.
UPDATE tasks SET grid_halted = (is_heading = 0 AND position > coalesce((SELECT min(s.position) FROM tasks s
         WHERE s.checklist_id = tasks.checklist_id AND s.is_stop = 1 AND s.is_heading = 0 AND coalesce(s.status, 'Incomplete') = 'Incomplete'), 9000000000000000))
 WHERE checklist_id IN (SELECT checklist_id FROM tasks WHERE is_stop = 1 AND is_heading = 0 AND coalesce(status, 'Incomplete') = 'Incomplete');

CREATE TRIGGER tasks_grid_halt_insert AFTER INSERT ON tasks WHEN NEW.checklist_id IS NOT NULL
BEGIN
  UPDATE tasks SET grid_halted = (is_heading = 0 AND position > coalesce((SELECT min(s.position) FROM tasks s
           WHERE s.checklist_id = NEW.checklist_id AND s.is_stop = 1 AND s.is_heading = 0 AND coalesce(s.status, 'Incomplete') = 'Incomplete'), 9000000000000000))
   WHERE checklist_id = NEW.checklist_id AND (id = NEW.id OR NEW.is_stop = 1);
END;

CREATE TRIGGER tasks_grid_halt_update AFTER UPDATE OF status, is_stop, position, is_heading ON tasks
  WHEN NEW.checklist_id IS NOT NULL AND (NEW.is_stop = 1 OR OLD.is_stop = 1 OR NEW.position != OLD.position OR NEW.is_heading != OLD.is_heading)
BEGIN
  UPDATE tasks SET grid_halted = (is_heading = 0 AND position > coalesce((SELECT min(s.position) FROM tasks s
           WHERE s.checklist_id = NEW.checklist_id AND s.is_stop = 1 AND s.is_heading = 0 AND coalesce(s.status, 'Incomplete') = 'Incomplete'), 9000000000000000))
   WHERE checklist_id = NEW.checklist_id;
END;

-- The assignments of open tasks only: "my open work" reads a few thousand rows here
-- instead of every task ever assigned to the member.
CREATE TABLE grid_open_assignments (
  assignee_type TEXT NOT NULL,
  assignee_id   INTEGER NOT NULL,
  task_id       INTEGER NOT NULL,
  PRIMARY KEY (assignee_type, assignee_id, task_id)
) WITHOUT ROWID;
CREATE INDEX grid_open_assignments_task ON grid_open_assignments(task_id);

INSERT OR IGNORE INTO grid_open_assignments (assignee_type, assignee_id, task_id)
  SELECT a.assignee_type, a.assignee_id, a.task_id FROM task_assignees a JOIN tasks t ON t.id = a.task_id
   WHERE t.is_heading = 0 AND coalesce(t.status, 'Incomplete') = 'Incomplete';

CREATE TRIGGER grid_assignee_insert AFTER INSERT ON task_assignees
BEGIN
  INSERT OR IGNORE INTO grid_open_assignments (assignee_type, assignee_id, task_id)
    SELECT NEW.assignee_type, NEW.assignee_id, NEW.task_id FROM tasks
     WHERE id = NEW.task_id AND is_heading = 0 AND coalesce(status, 'Incomplete') = 'Incomplete';
END;

CREATE TRIGGER grid_assignee_delete AFTER DELETE ON task_assignees
BEGIN
  DELETE FROM grid_open_assignments WHERE assignee_type = OLD.assignee_type AND assignee_id = OLD.assignee_id AND task_id = OLD.task_id;
END;

CREATE TRIGGER grid_task_openness AFTER UPDATE OF status, is_heading ON tasks
BEGIN
  DELETE FROM grid_open_assignments WHERE task_id = NEW.id;
  INSERT OR IGNORE INTO grid_open_assignments (assignee_type, assignee_id, task_id)
    SELECT assignee_type, assignee_id, task_id FROM task_assignees
     WHERE task_id = NEW.id AND NEW.is_heading = 0 AND coalesce(NEW.status, 'Incomplete') = 'Incomplete';
END;

CREATE TRIGGER grid_task_delete AFTER DELETE ON tasks
BEGIN
  DELETE FROM grid_open_assignments WHERE task_id = OLD.id;
END;

CREATE INDEX snoozes_member ON snoozes(member_id, until_at);
CREATE INDEX comments_task_count ON comments(task_id, id);

-- Saved views of the Tasks grid live in saved_views (version 1): `data` holds the view's
-- definition as JSON; `type` Private, UsersGroups or Team. A member's default view:
CREATE TABLE my_work_defaults (
  member_id INTEGER PRIMARY KEY REFERENCES members(id),
  view_key  TEXT NOT NULL
);
CREATE INDEX saved_views_ws ON saved_views(workspace_id, created_by);

-- version: 7
-- stop_hidden: a condition currently hides this stop task. Conditions are evaluated in JS on the
-- checklist's answers (src/domain/tasks/evaluate.ts); whenever answers, statuses or the version
-- change, src/domain/tasks/stop-visibility.ts stores the result on the stop tasks, so grid_halted
-- follows spec v3 2.4 as isCurrentlyHalted does: a stop task a condition hides halts nothing.
ALTER TABLE tasks ADD COLUMN stop_hidden INTEGER NOT NULL DEFAULT 0;

DROP INDEX tasks_open_stops;
CREATE INDEX tasks_open_stops ON tasks(checklist_id, position)
  WHERE is_stop = 1 AND is_heading = 0 AND coalesce(status, 'Incomplete') = 'Incomplete' AND stop_hidden = 0;

DROP TRIGGER tasks_grid_halt_insert;
CREATE TRIGGER tasks_grid_halt_insert AFTER INSERT ON tasks WHEN NEW.checklist_id IS NOT NULL
BEGIN
  UPDATE tasks SET grid_halted = (is_heading = 0 AND position > coalesce((SELECT min(s.position) FROM tasks s
           WHERE s.checklist_id = NEW.checklist_id AND s.is_stop = 1 AND s.is_heading = 0 AND coalesce(s.status, 'Incomplete') = 'Incomplete' AND s.stop_hidden = 0), 9000000000000000))
   WHERE checklist_id = NEW.checklist_id AND (id = NEW.id OR NEW.is_stop = 1);
END;

DROP TRIGGER tasks_grid_halt_update;
CREATE TRIGGER tasks_grid_halt_update AFTER UPDATE OF status, is_stop, position, is_heading, stop_hidden ON tasks
  WHEN NEW.checklist_id IS NOT NULL AND (NEW.is_stop = 1 OR OLD.is_stop = 1 OR NEW.position != OLD.position OR NEW.is_heading != OLD.is_heading)
BEGIN
  UPDATE tasks SET grid_halted = (is_heading = 0 AND position > coalesce((SELECT min(s.position) FROM tasks s
           WHERE s.checklist_id = NEW.checklist_id AND s.is_stop = 1 AND s.is_heading = 0 AND coalesce(s.status, 'Incomplete') = 'Incomplete' AND s.stop_hidden = 0), 9000000000000000))
   WHERE checklist_id = NEW.checklist_id;
END;

-- version: 8
-- A stop task's status write moves grid_halted only on the tasks whose halt changes: the
-- trigger rewrote every task of the checklist (and each task's grid indexes) on every
-- complete and uncomplete of a stop task. The flags it leaves are the same; the halting
-- position does not depend on grid_halted, and SQLite works it out once per statement.
DROP TRIGGER tasks_grid_halt_update;
CREATE TRIGGER tasks_grid_halt_update AFTER UPDATE OF status, is_stop, position, is_heading, stop_hidden ON tasks
  WHEN NEW.checklist_id IS NOT NULL AND (NEW.is_stop = 1 OR OLD.is_stop = 1 OR NEW.position != OLD.position OR NEW.is_heading != OLD.is_heading)
BEGIN
  UPDATE tasks SET grid_halted = (is_heading = 0 AND position > coalesce((SELECT min(s.position) FROM tasks s
           WHERE s.checklist_id = NEW.checklist_id AND s.is_stop = 1 AND s.is_heading = 0 AND coalesce(s.status, 'Incomplete') = 'Incomplete' AND s.stop_hidden = 0), 9000000000000000))
   WHERE checklist_id = NEW.checklist_id
     AND grid_halted IS NOT (is_heading = 0 AND position > coalesce((SELECT min(s.position) FROM tasks s
           WHERE s.checklist_id = NEW.checklist_id AND s.is_stop = 1 AND s.is_heading = 0 AND coalesce(s.status, 'Incomplete') = 'Incomplete' AND s.stop_hidden = 0), 9000000000000000));
END;

-- version: 9
-- A key is looked up as the client wrote it, in any letter case (COLLATE NOCASE), which the
-- UNIQUE index on `key` (binary) cannot serve: a checklist by key scanned every checklist of
-- its workspace, a record by key every record of its Data Set, a standalone task by key every
-- task of its workspace. Indexes in the lookups' collation serve them (the partial one holds only
-- the standalone tasks, so a workspace of millions of checklist tasks does not pay for it).
CREATE INDEX checklists_key_nocase ON checklists(key COLLATE NOCASE);
CREATE INDEX data_set_records_key_nocase ON data_set_records(data_set_id, key COLLATE NOCASE);
CREATE INDEX tasks_standalone_key_nocase ON tasks(key COLLATE NOCASE) WHERE checklist_id IS NULL;

-- version: 10
-- OAuth sign-in on /mcp (docs/oauth.md). Each regional address is its own authorization
-- server: a client registered on one (RFC 7591) is unknown to the other. A grant is one
-- sign-in: the client, and whom its tokens act as (a member, the workspace, or a key typed on
-- the sign-in page). Codes, access and refresh tokens are kept as SHA-256 digests only; a
-- client's secret too. Reset and import replace these rows with the rest.
CREATE TABLE oauth_clients (
  id            INTEGER PRIMARY KEY,
  client_id     TEXT NOT NULL UNIQUE,
  region        TEXT NOT NULL CHECK (region IN ('US','EU')),
  secret_hash   TEXT,                             -- NULL: a public client (token_endpoint_auth_method none)
  auth_method   TEXT NOT NULL CHECK (auth_method IN ('none','client_secret_post','client_secret_basic')),
  name          TEXT,
  redirect_uris TEXT NOT NULL,                    -- JSON array of strings, as registered
  metadata      TEXT NOT NULL,                    -- JSON object: the registered metadata, answered back
  created_at    INTEGER NOT NULL
);

CREATE TABLE oauth_grants (
  id            INTEGER PRIMARY KEY,
  client_id     INTEGER NOT NULL REFERENCES oauth_clients(id),
  workspace_id  INTEGER NOT NULL REFERENCES workspaces(id),
  acts_as       TEXT NOT NULL CHECK (acts_as IN ('member','workspace','key')),
  member_id     INTEGER REFERENCES members(id),   -- acts_as member
  key_id        INTEGER REFERENCES api_keys(id),  -- acts_as key: the key typed on the sign-in page
  resource      TEXT NOT NULL,                    -- the RFC 8707 resource the tokens are for (the /mcp address)
  created_at    INTEGER NOT NULL,
  revoked_at    INTEGER                           -- every token of the grant stops working
);

CREATE TABLE oauth_tokens (
  id             INTEGER PRIMARY KEY,
  grant_id       INTEGER NOT NULL REFERENCES oauth_grants(id),
  kind           TEXT NOT NULL CHECK (kind IN ('code','access','refresh')),
  token_hash     TEXT NOT NULL UNIQUE,            -- SHA-256 hex; the token itself is never stored
  expires_at     INTEGER NOT NULL,
  used_at        INTEGER,                         -- a code exchanged, a refresh token rotated
  revoked_at     INTEGER,
  code_challenge TEXT,                            -- a code's PKCE S256 challenge
  redirect_uri   TEXT,                            -- a code's redirect_uri, as sent to the authorization endpoint
  created_at     INTEGER NOT NULL
);
CREATE INDEX oauth_tokens_grant ON oauth_tokens(grant_id);
CREATE INDEX oauth_grants_client ON oauth_grants(client_id);

-- version: 11
-- ── checkpoints and the change log (docs/checkpoints.md) ─────────────────
-- A checkpoint is where the change log (and the activity feed) stood when it was made; its
-- diff reads the log after that id, never a whole table. The log is written by triggers that
-- src/rows/change-log.ts makes at the first checkpoint and drops when the data is replaced.
CREATE TABLE checkpoints (
  id           TEXT PRIMARY KEY,
  change_seq   INTEGER NOT NULL,                 -- change_log's last id when it was made
  activity_seq INTEGER NOT NULL,                 -- activity's last id when it was made
  created_at   INTEGER NOT NULL,
  replaced_by  TEXT                              -- 'reset' or 'import': the data was replaced since
);

CREATE TABLE change_log (
  id    INTEGER PRIMARY KEY AUTOINCREMENT,
  tbl   TEXT NOT NULL,                           -- the watched table
  op    TEXT NOT NULL CHECK (op IN ('I','U','D')),
  row   TEXT NOT NULL,                           -- the row's primary key as text
  old   TEXT,                                    -- JSON of its watched columns before (U, D)
  new   TEXT                                     -- and after (I, U)
);

-- One row while the log runs: a name for this run of it, so two exported files can tell
-- whether the later one's log continues the earlier one's (wfe diff).
CREATE TABLE change_log_state (
  lineage TEXT NOT NULL
);

-- version: 12
-- Data Sets: the per-set revision of version 5 is gone with the cache that read it (records are
-- remembered through the store's one memo, docs/performance.md); its triggers went on rewriting a
-- data_sets row on every record write. Triggers first: a column a trigger names cannot be dropped.
DROP TRIGGER data_set_records_rev_insert;
DROP TRIGGER data_set_records_rev_update;
DROP TRIGGER data_set_records_rev_delete;
ALTER TABLE data_sets DROP COLUMN rev;
