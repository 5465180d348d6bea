/** Every example workflow as n8n reads it on import, whatever the version. */
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { ROOT } from '../../dev/harness/paths';

const examples = readdirSync(join(ROOT, 'examples'))
	.filter((file) => file.endsWith('.json'))
	.map((file) => ({ file, workflow: JSON.parse(readFileSync(join(ROOT, 'examples', file), 'utf8')) }))
	.filter(({ workflow }) => Array.isArray(workflow.nodes));

test("every example's nodes have ids and names of their own: n8n 2.41 refuses a workflow where two share one", () => {
	expect(examples.length).toBeGreaterThan(15);
	for (const { file, workflow } of examples) {
		const nodes = workflow.nodes as Array<{ id: string; name: string }>;
		expect([file, new Set(nodes.map((n) => n.id)).size]).toEqual([file, nodes.length]);
		expect([file, new Set(nodes.map((n) => n.name)).size]).toEqual([file, nodes.length]);
	}
});
