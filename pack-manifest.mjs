// npm pack's prepack/postpack: the packed package.json carries no scripts. The checkout's
// scripts (prepare, build, bench, test...) point at files the tarball does not ship, and a
// `prepare` in a consumer's tree makes npm report an install script. `strip` keeps the
// checkout's package.json aside and writes the consumer's; `restore` puts it back.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const KEPT = '.package.json.checkout';
const mode = process.argv[2];
if (mode === 'strip') {
  if (existsSync(KEPT)) throw new Error(`${KEPT} exists: a previous npm pack did not finish; run node pack-manifest.mjs restore first.`);
  const text = readFileSync('package.json', 'utf8');
  writeFileSync(KEPT, text);
  const pkg = JSON.parse(text);
  delete pkg.scripts;
  delete pkg.devDependencies;
  writeFileSync('package.json', JSON.stringify(pkg, null, 2) + '\n');
} else if (mode === 'restore') {
  if (existsSync(KEPT)) renameSync(KEPT, 'package.json');
} else {
  throw new Error('usage: node pack-manifest.mjs strip|restore');
}
