// Sharing a checklist by link: GET/PUT/DELETE /v3/checklists/{key}/share (spec v3 4.7;
// EMULATOR.md: PUT needs no body, turns sharing on and answers the share status).
import { setShareToken } from '../../rows/checklists';
import type { Ctx } from '../../context';
import { newToken } from '../../ids';
import { actorName, recordActivity } from '../activity';
import { assertCanRead, assertCanRun } from '../access/checklists';
import { shareUrl } from '../urls';
import { findChecklist, type ChecklistRow } from '../checklist-lookup';

const status = (ctx: Ctx, token: string | null) => (token === null ? { isShared: false } : { isShared: true, shareUrl: shareUrl(ctx, token) });

export function getShare(ctx: Ctx, key: string) {
  const row = findChecklist(ctx, key);
  assertCanRead(ctx, row);
  return status(ctx, row.share_token);
}

/** On keeps an existing link (repeating PUT is harmless); off forgets it, so turning on again makes a new link. */
export function setShare(ctx: Ctx, key: string, on: boolean) {
  const row: ChecklistRow = findChecklist(ctx, key);
  assertCanRun(ctx, row);
  if (on && row.share_token === null) {
    const token = newToken(16);
    setShareToken(ctx.db, row.id, token);
    recordActivity(ctx, { checklistId: row.id, action: 'checklist.shared', text: `${actorName(ctx)} shared the checklist by link.` });
    return status(ctx, token);
  }
  if (!on && row.share_token !== null) {
    setShareToken(ctx.db, row.id, null);
    recordActivity(ctx, { checklistId: row.id, action: 'checklist.unshared', text: `${actorName(ctx)} stopped sharing the checklist by link.` });
    return status(ctx, null);
  }
  return status(ctx, row.share_token);
}
