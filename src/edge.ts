// What crosses every request, in the order it runs, registered here and nowhere else
// (the transports import none of it). Each handler looks at the path itself: the
// chain runs before routing, for every route family.
import type { ChainHandler } from './transports/http/app';
import { injectFault } from './faults/inject';
import { adminGate } from './control/gate';

const CONTROL = '/_emulator';

export const requestChain: ChainHandler[] = [
  // Injected faults (src/faults, docs/faults.md): only when a rule exists, never on the
  // control routes that manage them; may delay, answer or drop.
  (req, { emu, info, path }) => (emu.faults.size > 0 && !path.startsWith(CONTROL) ? injectFault(emu, req, path, info) : undefined),
  // The admin gate (EMULATOR.md "Addresses"): --no-admin 404; --admin-token 401 without it.
  (req, { emu, path }) => {
    if (path.startsWith(CONTROL)) adminGate(emu, req);
    return undefined;
  },
];
