import { execFileSync } from 'child_process';
import { existsSync, readFileSync } from 'fs';
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

test('the built nodes require nothing but n8n-workflow and their own files', () => {
	const built = execFileSync('grep', ['-rhoE', 'require\\("[^"]+"\\)', join(ROOT, 'dist')], { encoding: 'utf8' });
	const modules = new Set(
		built
			.split('\n')
			.filter(Boolean)
			.map((r) => r.slice(9, -2)),
	);
	const external = [...modules].filter((m) => !m.startsWith('.'));
	expect(external).toEqual(['n8n-workflow']);
});
