#!/usr/bin/env node
// n8n's own nodes the in-process engine (dev/harness/engine.ts) runs beside the package's:
// Manual Trigger, No Op and Loop Over Items, and the Code node's description (the engine pins
// a Code node's rows, as the editor pins data, so its code never runs). They come from the
// n8n-nodes-base tarball of the pinned n8n 2.8 runtime (version and checksum from its
// lockfile), unpacked without its dependencies into node_modules/.cache, where they find
// this project's n8n-workflow: 7 MB fetched once per clone, no n8n install.
const { createHash } = require('crypto');
const { execFileSync } = require('child_process');
const {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	renameSync,
	rmSync,
	writeFileSync,
} = require('fs');
const { join } = require('path');

const ROOT = join(__dirname, '..', '..');
const NODES = ['ManualTrigger', 'NoOp', 'SplitInBatches'];
const DESCRIBED = ['code'];

function pinned() {
	const lock = JSON.parse(readFileSync(join(ROOT, 'test', 'n8n', '2.8', 'package-lock.json'), 'utf8'));
	const { version, integrity } = lock.packages['node_modules/n8n-nodes-base'];
	return { version, integrity };
}

/** Where the nodes are unpacked: `<dir>/dist/nodes/<Node>/`, and `<dir>/descriptions.json`. */
function engineNodesDir() {
	return join(ROOT, 'node_modules', '.cache', `n8n-nodes-base-${pinned().version}`);
}

function ensureEngineNodes() {
	const dir = engineNodesDir();
	if (existsSync(join(dir, 'descriptions.json'))) return dir;
	const { version, integrity } = pinned();
	// Unpacked beside its place, so that the last step is a rename on the same file system.
	mkdirSync(join(dir, '..'), { recursive: true });
	const work = mkdtempSync(join(dir, '..', 'unpacking-n8n-nodes-base-'));
	try {
		execFileSync('npm', ['pack', `n8n-nodes-base@${version}`, '--pack-destination', work, '--silent'], {
			stdio: ['ignore', 'ignore', 'inherit'],
		});
		const tarball = join(
			work,
			readdirSync(work).find((name) => name.endsWith('.tgz')),
		);
		const [algorithm, expected] = integrity.split(/-(.*)/s);
		const actual = createHash(algorithm).update(readFileSync(tarball)).digest('base64');
		if (actual !== expected) throw new Error(`n8n-nodes-base@${version}: the tarball's checksum is not the lockfile's`);
		const paths = [...NODES.map((node) => `package/dist/nodes/${node}`), 'package/dist/types/nodes.json'];
		execFileSync('tar', ['-xzf', tarball, '-C', work, ...paths]);
		const types = JSON.parse(readFileSync(join(work, 'package', 'dist', 'types', 'nodes.json'), 'utf8'));
		const descriptions = types.filter((type) => DESCRIBED.includes(type.name));
		rmSync(join(work, 'package', 'dist', 'types'), { recursive: true });
		writeFileSync(join(work, 'package', 'descriptions.json'), JSON.stringify(descriptions));
		rmSync(dir, { recursive: true, force: true });
		renameSync(join(work, 'package'), dir);
		return dir;
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

module.exports = { engineNodesDir, ensureEngineNodes };

if (require.main === module) ensureEngineNodes();
