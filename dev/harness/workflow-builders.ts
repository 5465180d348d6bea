/** Test workflows as n8n imports them: their shape, and builders for the usual ones. */

export interface N8nNode {
	name: string;
	type: string;
	parameters?: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	onError?: 'continueRegularOutput' | 'continueErrorOutput' | 'stopWorkflow';
	executeOnce?: boolean;
	typeVersion?: number;
	position?: [number, number];
	/** A webhook node's id: its production URL is `/webhook/<webhookId>/<path>`. */
	webhookId?: string;
}

export interface Workflow {
	id: string;
	name: string;
	nodes: Array<N8nNode & { id: string; typeVersion: number; position: [number, number] }>;
	connections: Record<string, { main: Array<Array<{ node: string; type: 'main'; index: number }>> }>;
	active: boolean;
	settings: Record<string, unknown>;
}

export const MANUAL_TRIGGER: N8nNode = { name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1 };

/** A workflow whose nodes run one after the other, from a Manual Trigger. */
export function chain(id: string, nodes: N8nNode[]): Workflow {
	return graph(
		id,
		[MANUAL_TRIGGER, ...nodes],
		nodes.map((n, i) => [i === 0 ? MANUAL_TRIGGER.name : nodes[i - 1].name, n.name]),
	);
}

/**
 * A workflow from nodes and [from, to] edges; `[from, to, output]` leaves `from` by another
 * output than the first (1 is the error output of a node set to Continue (using error output)).
 */
export function graph(
	id: string,
	nodes: N8nNode[],
	edges: Array<[from: string, to: string] | [from: string, to: string, output: number]>,
): Workflow {
	const connections: Workflow['connections'] = {};
	for (const [from, to, output = 0] of edges) {
		connections[from] ??= { main: [] };
		const outputs = connections[from].main;
		for (let i = outputs.length; i <= output; i++) outputs.push([]);
		outputs[output].push({ node: to, type: 'main', index: 0 });
	}
	return {
		id,
		name: id,
		active: false,
		settings: { executionOrder: 'v1' },
		connections,
		nodes: nodes.map((n, i) => ({
			id: `${id}-${i}`,
			typeVersion: 1,
			position: [i * 220, 0] as [number, number],
			...n,
			parameters: n.parameters ?? {},
		})),
	};
}

/** A Code node that emits the given rows as items (a sheet's rows, say). */
export function rowsNode(name: string, rows: Array<Record<string, unknown>>): N8nNode {
	return codeRowsNode(name, `return ${JSON.stringify(rows)}.map((json) => ({ json }));`);
}

/** A Code node whose `jsCode` makes the items: 100,000 rows written out would be a 5 MB workflow. */
export function codeRowsNode(name: string, jsCode: string): N8nNode {
	return {
		name,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: { mode: 'runOnceForAllItems', language: 'javaScript', jsCode },
	};
}

/** An HTTP Request node that posts each item (or `jsonBody`) to a URL: how test workflows report what they got. */
export function reportNode(name: string, url: string, jsonBody = '={{ JSON.stringify($json) }}'): N8nNode {
	return {
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: { method: 'POST', url, sendBody: true, specifyBody: 'json', jsonBody, options: {} },
	};
}
