const { startEmulator } = require('wfe');

(async () => {
  const emu = await startEmulator({ listen: false });
  try {
    const r = await emu.fetch('/v3/auth/test', { headers: { 'X-API-KEY': 'acme-admin-key' } });
    emu.faults.add({ path: '/v3/members', status: 503, times: 1 });
    const faulted = await emu.fetch('/v3/members', { headers: { 'X-API-KEY': 'acme-admin-key' } });
    console.log('cjs', r.status, (await r.json()).teamName, faulted.status);
  } finally {
    await emu.close();
  }
})();
