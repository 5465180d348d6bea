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
	/** The first item of each node the code names. */
	nodes: Record<string, Record<string, unknown>>;
	now: DateTime;
	staticData?: Record<string, unknown>;
}

export function runExampleCode(node: string, run: CodeRun): Array<{ json: Record<string, any> }> {
	const entry = CODE_NODES.find((c) => c.node === node);
	if (!entry) throw new Error(`No example Code node "${node}"`);
	const body = new Function('$input', '$', '$now', 'DateTime', '$getWorkflowStaticData', codeOf(entry.parts));
	const $ = (name: string) => {
		if (!(name in run.nodes)) throw new Error(`The code named node "${name}", which the test did not give`);
		return { first: () => ({ json: run.nodes[name] }) };
	};
	const staticData = run.staticData ?? {};
	return body({ all: () => run.items.map((json) => ({ json })) }, $, run.now, DateTime, () => staticData);
}
