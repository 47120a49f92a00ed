import { startEmulator } from 'wfe';

const emu = await startEmulator();
const r = await emu.fetch('/v3/auth/test', { headers: { 'X-API-KEY': 'acme-admin-key' } });
const wrong = await fetch(`${emu.urls.US}/v3/auth/test`, { headers: { 'X-API-KEY': 'globex-admin-key' } });
console.log('esm', r.status, (await r.json()).teamName, emu.urls.US, wrong.status);
await emu.close();
