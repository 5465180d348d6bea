// The Debian packages the tests need, installed when missing: redis-server and postgresql for
// queue mode, chromium for the pages tested in a real browser. As root directly, else through
// passwordless sudo (a hosted GitHub runner), else an error saying what to run.
const { execFileSync } = require('child_process');
const { existsSync, readdirSync } = require('fs');
const { join } = require('path');

function succeeds(command, args) {
	try {
		execFileSync(command, args, { stdio: 'ignore' });
		return true;
	} catch {
		return false;
	}
}

const hasPostgres = () =>
	existsSync('/usr/lib/postgresql') &&
	readdirSync('/usr/lib/postgresql').some((v) => existsSync(join('/usr/lib/postgresql', v, 'bin', 'postgres')));

/** The packages not installed yet. */
function missingServices() {
	const missing = [];
	if (!succeeds('sh', ['-c', 'command -v redis-server'])) missing.push('redis-server');
	if (!hasPostgres()) missing.push('postgresql');
	return missing;
}

/**
 * The commands that install `missing`: apt-get as it is for root, behind `sudo -n` (never a
 * password prompt) for a user who may use sudo. Undefined when neither can install.
 */
function installCommands(missing, { root, sudo }) {
	if (!missing.length) return [];
	if (!root && !sudo) return undefined;
	const apt = (...args) =>
		root ? ['apt-get', ...args] : ['sudo', '-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args];
	return [apt('update', '-qq'), apt('install', '-y', '-qq', '--no-install-recommends', ...missing)];
}

/** Installs `missing` (Debian package names) for `purpose`, or says what to run. */
function installPackages(missing, purpose) {
	const root = process.getuid?.() === 0;
	const commands = installCommands(missing, { root, sudo: !root && succeeds('sudo', ['-n', 'true']) });
	if (!commands) {
		throw new Error(`${purpose} need ${missing.join(' and ')}: sudo apt-get install -y ${missing.join(' ')}`);
	}
	if (commands.length) console.log(`== apt-get install ${missing.join(' ')}${root ? '' : ' (with sudo)'} (${purpose})`);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	for (const [command, ...args] of commands) execFileSync(command, args, { stdio: 'inherit', env });
}

function ensureServices() {
	installPackages(missingServices(), 'Queue-mode tests');
}

/** Where the browser tests find Chromium: CHROMIUM_PATH, else Debian's. */
const chromiumPath = () => process.env.CHROMIUM_PATH || '/usr/bin/chromium';

function ensureChromium() {
	installPackages(existsSync(chromiumPath()) ? [] : ['chromium'], 'The campaign page tests (a real browser)');
}

module.exports = { ensureServices, ensureChromium, chromiumPath, installCommands };
