import wfe = require('wfe');

async function main(): Promise<void> {
  const emu = await wfe.startEmulator({ listen: false });
  const base: string = emu.urls.EU;
  emu.clock.freeze();
  await emu.reset();
  await emu.close();
  console.log(base);
}
void main();
