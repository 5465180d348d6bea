/**
 * What the nodes can be set to send, read from the built package as n8n loads it: each
 * resource's operations, the Unpod Trigger's modes, the list searches, the credential's test.
 */
import { basename, join } from 'path';
import type { ICredentialType, INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { ROOT } from '../../../dev/harness/paths';

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const pkg = require(join(ROOT, 'package.json')) as {
	name: string;
	n8n: { nodes: string[]; credentials: string[] };
};

/** The class a built file exports under its own name, as n8n loads it. */
function built<T>(file: string, suffix: string): T {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const Class = require(join(ROOT, file))[basename(file, suffix)] as new () => T;
	return new Class();
}
export const NODES = pkg.n8n.nodes.map((file) => built<INodeType>(file, '.node.js'));
export const CREDENTIALS = pkg.n8n.credentials.map((file) => built<ICredentialType>(file, '.credentials.js'));
export const nodeNamed = (name: string) => NODES.find((n) => n.description.name === name)!;

/** Nodes that send Unpod nothing: they only receive. */
export const RECEIVES_ONLY: Record<string, string> = {
	unpodCallEventsTrigger: "Unpod's pushes arrive at its webhook; it sends no request to Unpod",
};

const optionsOf = (property: INodeProperties | undefined) =>
	(property?.options ?? []).map((o) => String((o as { value: unknown }).value));

/** What a node can be set to send: its resources' operations, a poll's modes, its list searches. */
export function surfaceOf(node: INodeType): string[] {
	const { name, properties } = node.description as INodeTypeDescription;
	const keys: string[] = [];
	const resource = properties.find((p) => p.name === 'resource');
	const operations = properties.filter((p) => p.name === 'operation');
	if (resource) {
		for (const r of optionsOf(resource))
			for (const o of operations.filter((p) => p.displayOptions?.show?.resource?.includes(r)))
				keys.push(...optionsOf(o).map((op) => `${name} > ${r} > ${op}`));
	} else {
		for (const o of operations) keys.push(...optionsOf(o).map((op) => `${name} > ${op}`));
	}
	if (node.poll) {
		const modes = properties.find((p) => p.name === 'callsOf' && !p.displayOptions);
		if (!modes) throw new Error(`${name} polls, and its modes are not its Calls Of`);
		keys.push(...optionsOf(modes).map((m) => `${name} > callsOf: ${m}`));
	}
	keys.push(...Object.keys(node.methods?.listSearch ?? {}).map((m) => `${name} > listSearch: ${m}`));
	return keys;
}

export const SURFACE = [
	...NODES.flatMap(surfaceOf),
	...CREDENTIALS.filter((c) => c.test).map((c) => `${c.name} > test`),
];
