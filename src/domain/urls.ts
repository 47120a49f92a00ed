// Links into the app (`url` properties). The emulator serves no app; these are stable,
// key-derived addresses on the workspace's regional base URL (docs/decisions.md).
import type { Ctx } from '../context';

type C = Pick<Ctx, 'appUrl'>;
export const templateUrl = (ctx: C, templateKey: string) => `${ctx.appUrl}/app/templates/${templateKey}`;
export const checklistUrl = (ctx: C, checklistKey: string) => `${ctx.appUrl}/app/checklists/${checklistKey}`;
export const checklistTaskUrl = (ctx: C, checklistKey: string, taskKey: string) => `${ctx.appUrl}/app/checklists/${checklistKey}/tasks/${taskKey}`;
export const standaloneTaskUrl = (ctx: C, taskKey: string) => `${ctx.appUrl}/app/tasks/${taskKey}`;
export const myWorkUrl = (ctx: C) => `${ctx.appUrl}/app/my-work`;
export const shareUrl = (ctx: C, token: string) => `${ctx.appUrl}/share/${token}`;
export const fileUrl = (ctx: C, token: string) => `${ctx.appUrl}/files/${token}`;
