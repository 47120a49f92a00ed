// Checkpoints of one emulator (docs/checkpoints.md): make one, read what changed since,
// forget one. The database keeps where the change log stood; this emulator's memory keeps
// where its request journal stood, for the calls made since.
import { ApiError } from '../errors';
import { Slot, type Emulator } from '../emulator';
import { newGuid } from '../ids';
import { changesSince, isLogging, lastChangeId, startLogging, clearLog, stopLogging } from '../rows/change-log';
import { checkpointById, checkpointCount, deleteCheckpoint, insertCheckpoint, lastActivityId, type CheckpointRow } from '../rows/checkpoints';
import { fold } from './fold';
import { group, type Groups } from './diff';

/** The journal's sequence number at each checkpoint this emulator made. */
const JOURNAL_MARKS = new Slot<Map<string, number>>('checkpoint journal marks');
const marksOf = (emu: Emulator) => emu.slot(JOURNAL_MARKS) ?? emu.setSlot(JOURNAL_MARKS, new Map());

const iso = (ms: number) => new Date(ms).toISOString();

export interface Call {
  at: string;
  method: string;
  path: string;
  status: number;
  requestId: string;
  keyName?: string;
  region: string;
  operations?: { operation: string; tool?: string; status: number }[];
}

export interface DiffAnswer {
  checkpoint: { id: string; createdAt: string };
  now: string;
  changes: Groups;
  calls: Call[];
  callsComplete: boolean;
}

export function createCheckpoint(emu: Emulator): { id: string; createdAt: string } {
  const id = newGuid();
  const at = emu.clock.now();
  emu.db.transaction(() => {
    startLogging(emu.db, newGuid());
    insertCheckpoint(emu.db, { id, change_seq: lastChangeId(emu.db), activity_seq: lastActivityId(emu.db), created_at: at });
  })();
  marksOf(emu).set(id, emu.journal.lastSeq);
  return { id, createdAt: iso(at) };
}

export const notFound = (id: string) => new ApiError(404, 'CHECKPOINT_NOT_FOUND', `No checkpoint ${id}: make one with POST /_emulator/checkpoints.`, { field: 'id' });

/** The checkpoint, or the refusal: unknown (404), or the data replaced since (409). */
function usable(emu: Emulator, id: string): CheckpointRow {
  const row = checkpointById(emu.db, id);
  if (!row) throw notFound(id);
  if (row.replaced_by) {
    const what = row.replaced_by === 'import' ? 'imported over (POST /_emulator/import or wfe import)' : 'reset (POST /_emulator/reset or wfe seed)';
    throw new ApiError(409, 'CHECKPOINT_STALE', `The data was ${what} after checkpoint ${id} was made: there is nothing to compare it with. Make a new checkpoint.`, { reason: row.replaced_by });
  }
  if (!isLogging(emu.db)) throw new ApiError(409, 'CHECKPOINT_STALE', `The change log of checkpoint ${id} is gone (the data was replaced). Make a new checkpoint.`, { reason: 'log' });
  return row;
}

export function diffSince(emu: Emulator, id: string): DiffAnswer {
  // One read transaction: the log and the names it is resolved with are of one state.
  const { row, changes } = emu.db.transaction(() => {
    const row = usable(emu, id);
    return { row, changes: group(fold(changesSince(emu.db, row.change_seq)), { db: emu.db, after: 'main', activitySeq: row.activity_seq }) };
  }).deferred();
  const mark = marksOf(emu).get(id);
  const journal = mark === undefined ? { entries: [], complete: false } : emu.journal.since(mark);
  const calls: Call[] = journal.entries.map((e) => ({
    at: e.at,
    method: e.method,
    path: e.path,
    status: e.status,
    requestId: e.requestId,
    ...(e.keyName !== undefined ? { keyName: e.keyName } : {}),
    region: e.region,
    ...(e.ops ? { operations: e.ops } : {}),
  }));
  return { checkpoint: { id: row.id, createdAt: iso(row.created_at) }, now: iso(emu.clock.now()), changes, calls, callsComplete: journal.complete };
}

/** Forgets a checkpoint; with the last one gone, the log stops and is emptied. */
export function removeCheckpoint(emu: Emulator, id: string): void {
  emu.db.transaction(() => {
    if (!deleteCheckpoint(emu.db, id)) throw notFound(id);
    if (checkpointCount(emu.db) === 0) {
      stopLogging(emu.db);
      clearLog(emu.db);
    }
  })();
  marksOf(emu).delete(id);
}
