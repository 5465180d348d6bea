/**
 * Runs an example's Code node code as n8n's Code node does ("Run Once for All Items"): with its
 * input items, `$('Node')` of the nodes before it, `$now`, Luxon's `DateTime` and the workflow's
 * static data. For unit tests of the code; real n8n runs it in the e2e tests.
 */
import { DateTime } from 'luxon';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { CODE_NODES, codeOf } = require('../../scripts/example-code') as {
	CODE_NODES: Array<{ workflow: string; node: string; parts: string[] }>;
	codeOf: (parts: string[]) => string;
};

export interface CodeRun {
	items: Array<Record<string, unknown>>;
	/** The output of each node the code names: its items, or its one item. */
	nodes: Record<string, Record<string, unknown> | Array<Record<string, unknown>>>;
	now: DateTime;
	staticData?: Record<string, unknown>;
	/** How many times the node ran before in this execution (a loop). */
	runIndex?: number;
}

export function runExampleCode(node: string, run: CodeRun): Array<{ json: Record<string, any> }> {
	const entry = CODE_NODES.find((c) => c.node === node);
	if (!entry) throw new Error(`No example Code node "${node}"`);
	const body = new Function(
		'$input',
		'$',
		'$now',
		'DateTime',
		'$getWorkflowStaticData',
		'$runIndex',
		codeOf(entry.parts),
	);
	const itemsOf = (items: Array<Record<string, unknown>>) => ({
		all: () => items.map((json) => ({ json })),
		first: () => ({ json: items[0] }),
	});
	const $ = (name: string) => {
		if (!(name in run.nodes)) throw new Error(`The code named node "${name}", which the test did not give`);
		const output = run.nodes[name];
		return itemsOf(Array.isArray(output) ? output : [output]);
	};
	const staticData = run.staticData ?? {};
	return body(itemsOf(run.items), $, run.now, DateTime, () => staticData, run.runIndex ?? 0);
}
