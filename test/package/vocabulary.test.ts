/**
 * The public surface of the built nodes speaks one vocabulary: what saved workflows will depend
 * on once the package is published (README, "Conventions").
 */
import type { INodeProperties, INodeType } from 'n8n-workflow';
import { join } from 'path';
import pkg from '../../package.json';
import { CALL_ENDINGS } from '../../nodes/shared/tasks';

const ROOT = join(__dirname, '..', '..');
const nodes: INodeType[] = pkg.n8n.nodes.map((file: string) => {
	const module = require(join(ROOT, file));
	const name = file.split('/').pop()!.replace('.node.js', '');
	return new (module[name] as new () => INodeType)();
});

/** Every parameter of a node, collections' options included. */
function parameters(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((p) => [
		p,
		...(p.type === 'collection' || p.type === 'fixedCollection'
			? parameters(((p.options ?? []) as INodeProperties[]).filter((o) => 'type' in o))
			: []),
	]);
}
const all = nodes.flatMap((n) =>
	parameters(n.description.properties)
		.filter((p) => p.type !== 'notice')
		.map((p) => ({ node: n.description.name, ...p })),
);

test('six nodes, one version each', () => {
	expect(nodes).toHaveLength(6);
	for (const node of nodes)
		expect([node.description.name, node.description.version]).toEqual([node.description.name, 1]);
});

test('no Resource dropdown with a single choice', () => {
	for (const p of all.filter((p) => p.name === 'resource')) expect((p.options ?? []).length).toBeGreaterThan(1);
});

test('one display name for each parameter name, in every node', () => {
	const names = new Map<string, Set<string>>();
	for (const p of all) (names.get(p.name) ?? names.set(p.name, new Set()).get(p.name)!).add(p.displayName);
	const several = [...names].filter(([, shown]) => shown.size > 1).map(([name, shown]) => [name, [...shown]]);
	expect(several).toEqual([]);
});

test('one default for each parameter of the same name and type', () => {
	const defaults = new Map<string, Set<string>>();
	// Resource and Operation are each node's own; a Status of bridges and one of tasks are two things.
	for (const p of all.filter((p) => p.type !== 'resourceLocator' && p.name !== 'operation' && p.name !== 'resource')) {
		const choices = (p.options ?? []).map((o) => ('value' in o ? o.value : ''));
		const key = `${p.name}:${p.type}:${JSON.stringify(choices)}`;
		(defaults.get(key) ?? defaults.set(key, new Set()).get(key)!).add(JSON.stringify(p.default));
	}
	expect([...defaults].filter(([, seen]) => seen.size > 1).map(([key, seen]) => [key, [...seen]])).toEqual([]);
});

test('the old dialects are gone: pilot, tasksOf, watch, callType, Max Wait without what it waits for', () => {
	const names = new Set(all.map((p) => p.name));
	for (const old of ['pilot', 'tasksOf', 'watch', 'callType', 'maxWaitSeconds', 'maxWaitMinutes', 'createdAfter'])
		expect(names.has(old)).toBe(false);
	expect(all.filter((p) => /^Max Wait/.test(p.displayName))).toEqual([]);
	// Wait limits say their unit (Wait Mode is a choice, not a limit).
	for (const p of all.filter((p) => /Wait/.test(p.displayName) && p.type === 'number'))
		expect(p.displayName).toMatch(/\((Seconds|Minutes)\)$/);
});

test('both triggers start on the same events by default: every ending of a call', () => {
	const events = all.filter((p) => p.name === 'events').map((p) => p.default);
	expect(events).toHaveLength(2);
	for (const e of events) expect(e).toEqual(CALL_ENDINGS.map((c) => c.value));
});

test('required fields do not default to an expression that may resolve to nothing', () => {
	const quiet = all.filter((p) => p.required && typeof p.default === 'string' && p.default.startsWith('='));
	expect(quiet.map((p) => `${p.node}.${p.name}`)).toEqual([]);
});

test("a carrier's auth token taken as an input is masked (password fields)", () => {
	const keys = all.filter((p) => p.name === 'authToken');
	expect(keys.length).toBeGreaterThanOrEqual(2);
	for (const p of keys) expect(p.typeOptions?.password).toBe(true);
});
