/**
 * The suite as an installable tool: `npm pack` it, install the tarball into
 * an empty folder (dependencies from the npm cache when it has them, else the
 * registry), and from there run `npx pmix-conformance smoke` and a one-area
 * `run` against the Python template harness the package ships.
 * PMIX_SKIP_PACKAGE_TEST=1 skips it (for a machine with no npm registry).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const skip = process.env.PMIX_SKIP_PACKAGE_TEST === '1' ? 'PMIX_SKIP_PACKAGE_TEST=1' : false;

test('npm pack, install the tarball in an empty folder, then smoke and run one area from there', { skip, timeout: 300_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pmix-pack-'));
  const npm = (args: string[], cwd: string) => execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const tarball = npm(['pack', '--pack-destination', dir], root).trim().split('\n').pop()!;
  const app = path.join(dir, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
  npm(['install', '--prefer-offline', path.join(dir, tarball)], app);
  const harness = `python3 ${path.join(app, 'node_modules', 'pmix-dynres-conformance', 'harnesses', 'python', 'harness.py')}`;
  const npx = (args: string[]) => execFileSync('npx', ['--no-install', 'pmix-conformance', ...args], { cwd: app, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  assert.match(npx(['smoke', '--command', harness]), /PASSED: the harness speaks the protocol/);
  const out = npx(['run', '--area', 'routing', '--command', harness, '--reports', path.join(dir, 'reports')]);
  assert.match(out, /RESULT: every outcome matches the expectations/);
  assert.ok(fs.existsSync(path.join(dir, 'reports', 'report.html')));
  fs.rmSync(dir, { recursive: true, force: true });
});
