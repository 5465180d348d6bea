/** No node module keeps mutable state between executions (queue mode runs them in many processes). */
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { findModuleState } from '../helpers/module-state';
import { ROOT } from '../../dev/harness/paths';

function sources(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sources(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

test('nodes/ and credentials/ keep no module-level mutable state', () => {
	const files = [...sources(join(ROOT, 'nodes')), ...sources(join(ROOT, 'credentials'))];
	expect(files.length).toBeGreaterThan(30);
	expect(findModuleState(files)).toEqual([]);
});

test('the check finds each kind of module state, and leaves locals and constants alone', () => {
	const dir = mkdtempSync(join(tmpdir(), 'unpod-module-state-'));
	try {
		const shared = join(dir, 'shared.ts');
		writeFileSync(shared, 'export const registry: Record<string, number> = {};\n');
		const file = join(dir, 'node.ts');
		writeFileSync(
			file,
			[
				"import { registry } from './shared';",
				'let calls = 0;',
				'const cache = new Map<string, string>();',
				'const seen: string[] = [];',
				'const settings = { path: "tasks/" };',
				'const OPTIONS = [{ name: "A", value: "a" }];',
				'export class Node {',
				'\tstatic last = "";',
				'\tstatic readonly kind = "x";',
				'\trun(id: string) {',
				'\t\tcalls++;',
				'\t\tcache.set(id, id);',
				'\t\tseen.push(id);',
				'\t\tsettings.path = id;',
				'\t\tregistry[id] = 1;',
				'\t\tObject.assign(settings, { path: id });',
				'\t\tconst local: string[] = [];',
				'\t\tlocal.push(id);',
				'\t\tconst seen2 = new Set<string>();',
				'\t\tseen2.add(id);',
				'\t\treturn OPTIONS.map((o) => o.value).concat(local);',
				'\t}',
				'}',
			].join('\n'),
		);
		const found = findModuleState([file]).map((f) => `${f.line}: ${f.what}`);
		expect(found).toEqual([
			'2: module-level let',
			'3: module-level new Map() (cache)',
			'8: static property last that is not readonly',
			'11: update of module-level calls',
			'12: set() on module-level cache',
			'13: push() on module-level seen',
			'14: assignment to module-level settings.path',
			'15: assignment to module-level registry[id]',
			'16: Object.assign() into module-level settings',
		]);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});
