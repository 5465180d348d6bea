/** What the n8n install says while npm is quiet, counted as npm counts, and what it runs the install with. */
import { spawn } from 'child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const progress = require('../../dev/install/install-progress.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { installEnv } = require('../../dev/install/runtime.js');

test("npm's total: the lockfile's packages for this platform, nested ones too, none extraneous", () => {
	const lock = {
		packages: {
			'': { name: 'runtime' },
			'node_modules/n8n': { version: '2.8.4' },
			'node_modules/a/node_modules/b': {},
			'node_modules/@scope/c': { hasInstallScript: true },
			'node_modules/old': { extraneous: true },
			'node_modules/esbuild-darwin': { os: ['darwin'], optional: true },
			'node_modules/arm-only': { cpu: ['arm64'], optional: true },
			'node_modules/not-windows': { os: ['!win32'] },
			'node_modules/musl-build': { os: ['linux'], cpu: ['x64'], libc: ['musl'], optional: true },
			'node_modules/glibc-build': { os: ['linux'], cpu: ['x64'], libc: ['glibc'], hasInstallScript: true },
		},
	};
	const { folders, scripted } = progress.expectedPackages(lock, 'linux', 'x64', 'glibc');
	expect(folders).toEqual([
		'node_modules/n8n',
		'node_modules/a/node_modules/b',
		'node_modules/@scope/c',
		'node_modules/not-windows',
		'node_modules/glibc-build',
	]);
	expect(scripted).toEqual(['@scope/c', 'glibc-build']);
	expect(progress.expectedPackages(lock, 'darwin', 'arm64', undefined).folders).toEqual(
		expect.arrayContaining(['node_modules/esbuild-darwin', 'node_modules/arm-only']),
	);
	expect(progress.packageName('node_modules/ssh2-sftp-client/node_modules/ssh2')).toBe('ssh2');
});

test('each line says what npm waits for: downloads, unpacking against its total, then which install scripts run', () => {
	const base = { seconds: 30, total: 1918, running: [], scripted: ['sqlite3', 'cpu-features'] };
	expect(progress.progressLine({ ...base, unpacked: 0 })).toBe(
		'  ... installing n8n: 30 s, npm is resolving and downloading 1,918 packages (none unpacked yet)',
	);
	expect(progress.progressLine({ ...base, unpacked: 1245 })).toBe(
		'  ... installing n8n: 30 s, 1,245 of 1,918 packages unpacked',
	);
	expect(progress.progressLine({ ...base, unpacked: 1918, running: ['sqlite3'] })).toBe(
		'  ... installing n8n: 30 s, 1,918 of 1,918 packages unpacked; install scripts running: sqlite3',
	);
	expect(progress.progressLine({ ...base, unpacked: 1918 })).toBe(
		'  ... installing n8n: 30 s, all 1,918 packages unpacked; npm is running the install scripts of 2 of them (sqlite3, cpu-features)',
	);
});

const linux = process.platform === 'linux' ? test : test.skip;
linux('an install script is named by the package folder its process works in, nested and scoped ones too', async () => {
	const dir = mkdtempSync(join(tmpdir(), 'unpod-progress-'));
	const modules = join(dir, 'node_modules');
	const folders = [join(modules, 'sqlite3'), join(modules, 'a', 'node_modules', '@scope', 'b', 'build')];
	const children = folders.map((cwd) => {
		mkdirSync(cwd, { recursive: true });
		return spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { cwd, stdio: 'ignore' });
	});
	try {
		await Promise.all(children.map((c) => new Promise((resolve) => c.once('spawn', resolve))));
		expect(progress.runningScripts(modules)).toEqual(['@scope/b', 'sqlite3']);
	} finally {
		for (const c of children) c.kill();
		await Promise.all(children.map((c) => new Promise((resolve) => c.once('exit', resolve))));
		rmSync(dir, { recursive: true, force: true });
	}
	expect(progress.runningScripts(modules)).toEqual([]);
});

test('npm installs n8n with usage reports off and its temp files inside the install', () => {
	const env = installEnv('/cache/2.8-abc.partial-1', { PATH: '/bin', TMPDIR: '/tmp' });
	// @scarf/scarf's opt-outs (it reads either), and the folder removed with the install.
	expect(env).toMatchObject({ PATH: '/bin', SCARF_ANALYTICS: 'false', DO_NOT_TRACK: '1' });
	expect(env.TMPDIR).toBe(join('/cache/2.8-abc.partial-1', '.tmp'));
});
