#!/usr/bin/env node
// `npm run scan`: n8n's own gate, @n8n/scan-community-package, on the source (its lint of
// package.json and {nodes,credentials}/**) and on the packed tarball, as n8n runs it before
// a package can be verified. Needs `npm run build` first. The scanner installs once per machine,
// as the n8n runtimes do, from the recipe in test/scan, with --ignore-scripts: a dependency's
// preinstall insists on pnpm.
const { execFileSync } = require('child_process');
const { mkdtempSync, readdirSync, rmSync, cpSync } = require('fs');
const { tmpdir } = require('os');
const { join } = require('path');
const { ensureTool } = require('../dev/install/runtime');

const ROOT = join(__dirname, '..');
const RECIPE = join(ROOT, 'test', 'scan');
const SCANNER = join('node_modules', '@n8n', 'scan-community-package', 'scanner', 'scanner.mjs');

async function main() {
	const scanner = join(ensureTool(RECIPE, SCANNER, '@n8n/scan-community-package'), SCANNER);
	const work = mkdtempSync(join(tmpdir(), 'unpod-scan-'));
	try {
		// The scanner makes its own temp folder when it loads and never removes it: make it
		// inside ours, which goes below.
		process.env.TMPDIR = work;
		const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(scanner);
		// The source, as n8n reads it from the repository.
		const source = join(work, 'source');
		for (const part of ['package.json', 'nodes', 'credentials', 'icons']) {
			cpSync(join(ROOT, part), join(source, part), { recursive: true });
		}
		// The tarball, as the publish workflow makes it: release.js first (with a stand-in
		// repository), then npm pack.
		const release = join(work, 'release');
		for (const part of ['package.json', 'README.md', 'LICENSE.md', 'dist']) {
			cpSync(join(ROOT, part), join(release, part), { recursive: true });
		}
		execFileSync('node', [join(__dirname, 'release.js'), 'unpod-ci/n8n-nodes-unpod', 'v0.0.0-ci', release], {
			stdio: 'ignore',
		});
		execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: release, stdio: 'ignore' });
		const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
		execFileSync('tar', ['xzf', join(work, tarball), '-C', work]);
		let failed = false;
		for (const [label, dir, patterns] of [
			['source', source, SOURCE_FILE_PATTERNS],
			['tarball', join(work, 'package'), ['**/*.js', 'package.json']],
		]) {
			const result = await analyzePackage(dir, patterns);
			console.log(`scan of the ${label}: ${result.passed ? 'passed' : 'FAILED'}`);
			if (!result.passed) {
				failed = true;
				console.log(`${result.message}\n${result.details ?? ''}`);
			}
		}
		process.exitCode = failed ? 1 : 0;
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
