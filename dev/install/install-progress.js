// What the n8n install is doing, every 15 s, beside an npm that says nothing (--loglevel=error;
// its own progress bar needs a terminal). Counted against npm's own total: the lockfile's
// packages that npm installs on this platform (n8n 2.8.4: 1,918, the "added 1918 packages"
// npm reports), unpacked once their package.json is in place (npm makes every folder first and
// fills them later). Then npm runs the packages' install scripts, which this names as they run.
const { existsSync, readFileSync, readdirSync, readlinkSync } = require('fs');
const { join, sep } = require('path');

/** npm's os/cpu rule: a list of allowed values, or of "!value" exclusions. */
function allows(list, value) {
	if (!Array.isArray(list) || !list.length) return true;
	const excluded = list.filter((v) => v.startsWith('!')).map((v) => v.slice(1));
	const allowed = list.filter((v) => !v.startsWith('!'));
	return !excluded.includes(value) && (!allowed.length || allowed.includes(value));
}

/** glibc or musl on Linux (npm skips packages built for the other), else undefined. */
function hostLibc() {
	if (process.platform !== 'linux') return undefined;
	return process.report?.getReport().header.glibcVersionRuntime ? 'glibc' : 'musl';
}

/** The lockfile's package folders that npm installs here, and those with an install script. */
function expectedPackages(lock, platform = process.platform, arch = process.arch, libc = hostLibc()) {
	const folders = [];
	const scripted = [];
	for (const [key, entry] of Object.entries(lock.packages ?? {})) {
		if (!key.startsWith('node_modules/') || entry.extraneous) continue;
		if (!allows(entry.os, platform) || !allows(entry.cpu, arch) || (libc && !allows(entry.libc, libc))) continue;
		folders.push(key);
		if (entry.hasInstallScript) scripted.push(packageName(key));
	}
	return { folders, scripted: [...new Set(scripted)] };
}

/** `node_modules/a/node_modules/@b/c` -> `@b/c`. */
function packageName(folder) {
	const parts = folder.split('node_modules/');
	return parts[parts.length - 1].replace(/\/$/, '');
}

/** The packages whose install scripts run now: processes working in a package's folder (Linux's /proc). */
function runningScripts(modulesDir) {
	const names = new Set();
	let pids = [];
	try {
		pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
	} catch {
		return [];
	}
	for (const pid of pids) {
		let cwd;
		try {
			cwd = readlinkSync(`/proc/${pid}/cwd`);
		} catch {
			continue;
		}
		if (!cwd.startsWith(modulesDir + sep)) continue;
		const inside = cwd.slice(modulesDir.length + 1).split(sep);
		// The package folder: its name (one part, or two for a scope), nested modules followed.
		const parts = [];
		for (let i = 0; i < inside.length;) {
			const width = inside[i].startsWith('@') ? 2 : 1;
			parts.push(inside.slice(i, i + width).join('/'));
			i += width;
			if (inside[i] !== 'node_modules') break;
			i += 1;
		}
		names.add(parts[parts.length - 1]);
	}
	return [...names].sort();
}

const count = (n) => n.toLocaleString('en-US');

/** One progress line, saying what npm waits for. */
function progressLine({ seconds, unpacked, total, running, scripted }) {
	const head = `  ... installing n8n: ${seconds} s, `;
	if (running.length) {
		return `${head}${count(unpacked)} of ${count(total)} packages unpacked; install scripts running: ${running.join(', ')}`;
	}
	if (unpacked === 0) return `${head}npm is resolving and downloading ${count(total)} packages (none unpacked yet)`;
	if (unpacked < total) return `${head}${count(unpacked)} of ${count(total)} packages unpacked`;
	return (
		`${head}all ${count(total)} packages unpacked; npm is running the install scripts of ` +
		`${scripted.length} of them (${scripted.join(', ')})`
	);
}

/** The ticker itself: `node install-progress.js <install folder> <start ms> <parent pid>`. */
function main([dir, started, parent]) {
	const modules = join(dir, 'node_modules');
	const { folders, scripted } = expectedPackages(JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')));
	setInterval(() => {
		// It ends with the install, and on its own if the installing process is gone.
		if (process.ppid !== Number(parent)) process.exit(0);
		const unpacked = folders.filter((f) => existsSync(join(dir, f, 'package.json'))).length;
		const seconds = Math.round((Date.now() - Number(started)) / 1000);
		console.log(progressLine({ seconds, unpacked, total: folders.length, running: runningScripts(modules), scripted }));
	}, 15_000);
}

module.exports = { allows, expectedPackages, packageName, runningScripts, progressLine };

if (require.main === module) main(process.argv.slice(2));
