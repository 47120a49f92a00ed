// What crosses every request, in the order it runs, registered here and nowhere else
// (the transports import none of it). Guards run first, from the headers alone, on every
// entry (the socket before the node fast path, the library's in-process fetch); the
// handlers after them run on the fetch path before routing, for every route family.
import type { ChainHandler } from './transports/http/app';
import { checkHostAndOrigin } from './transports/http/origin';
import { injectFault } from './faults/inject';
import { adminGate } from './control/gate';

const CONTROL = '/_emulator';

export const requestChain: ChainHandler[] = [
  // Host and Origin (docs/security.md): a foreign page or a rebinding DNS name drives nothing.
  { name: 'host and origin', guard: checkHostAndOrigin },
  // Injected faults (src/faults, docs/faults.md): only when a rule exists, never on the
  // control routes that manage them; may delay, answer or drop. The node fast path stands
  // aside while any rule exists (transports/http/fast-path.ts), so every request meets this handler.
  { name: 'faults', handle: (req, { emu, info, path }) => (emu.faults.size > 0 && !path.startsWith(CONTROL) ? injectFault(emu, req, path, info) : undefined) },
  // The admin gate (EMULATOR.md "Addresses"): --no-admin 404; --admin-token 401 without it.
  {
    name: 'admin gate',
    handle: (req, { emu, path }) => {
      if (path.startsWith(CONTROL)) adminGate(emu, req);
      return undefined;
    },
  },
];
