import { startEmulator, FixtureError, type EmbeddedEmulator, type FaultRule } from 'wfe';

const emu: EmbeddedEmulator = await startEmulator({ fixture: 'demo', budgets: { standard: 50 }, clock: { start: '2030-01-01T00:00:00Z', frozen: true } });
const when: Date = emu.clock.advance({ days: 1 });
const rule: FaultRule = emu.faults.add({ tool: 'get_member', status: 429 });
const key: string = emu.keys[0].key;
const res: Response = await emu.fetch('/v3/auth/test', { headers: { 'X-API-KEY': key } });
console.log(when, rule.id, res.status, emu.journal(1)[0]?.fault?.kind, emu.deliveries({ limit: 5 }).length, FixtureError.name);
await emu[Symbol.asyncDispose]();
