// Installs webhooks on an emulator: the event hook (outbox), the background
// sender, the forward option and the /_emulator/webhooks control routes.
import { Slot, type Emulator } from '../emulator';
import type { AppExtensions } from '../transports/http/app';
import { recordEvent } from '../domain/webhooks/outbox';
import { resolveOptions } from './options';
import { WebhookSender } from './sender';
import { addForward, webhookControlRoutes } from './control';
import { controlRouteSpec, type ControlRoute } from '../control/define';
import { deleteForwardsFrom } from '../rows/webhook-forwards';

const SENDER = new Slot<WebhookSender>('webhook sender');

/** The sender of an emulator (tests and `wfe listen` helpers). */
export const senderOf = (emu: Emulator): WebhookSender | undefined => emu.slot(SENDER);

const CLI_FORWARD = '--forward-events';

export function installWebhooks(emu: Emulator, ext?: AppExtensions): WebhookSender {
  const existing = emu.slot(SENDER);
  if (existing) return existing;
  const opts = resolveOptions(emu.options.webhooks);
  opts.forwardEvents = emu.options.webhooks?.forwardEvents ?? (process.env.WFE_FORWARD_EVENTS || undefined);
  const sender = new WebhookSender(emu, opts);
  emu.setSlot(SENDER, sender);
  emu.hooks.event = (ctx, eventType, subject) => {
    const r = recordEvent(ctx, eventType, subject, ctx.now() + opts.processDelayMs);
    if (!r || r.deliveries === 0) return;
    // new_checklist is "the checklist as processed shortly after creation: checklistEndDateTime
    // null" (6.3): its body is taken now, inside the creating transaction, so a paused sender or
    // a slow target never sends what the checklist became later (completed, answered).
    if (eventType === 'new_checklist') sender.buildNow(r.eventId);
    sender.kick();
  };
  // The forward set on the command line replaces the one of the previous start.
  deleteForwardsFrom(emu.db, CLI_FORWARD);
  if (opts.forwardEvents) {
    if (!/^https?:\/\/[^/]/i.test(opts.forwardEvents)) throw new Error(`--forward-events needs an absolute http or https URL, not '${opts.forwardEvents}'.`);
    addForward(emu, opts.forwardEvents, undefined, CLI_FORWARD);
  }
  for (const r of webhookControlRoutes(sender)) ext?.routes.push(controlRouteSpec(r as ControlRoute));
  emu.closers.push(() => sender.stop());
  sender.start();
  return sender;
}
