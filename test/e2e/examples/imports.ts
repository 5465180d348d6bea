/** Every example imports into real n8n, and every node type it uses is one n8n knows. */
import type { N8n } from '../../../dev/harness/n8n';
import type { Harness, Workflows } from '../../helpers/setup';
import { type ExamplesSuite, perItem } from './suite';
import { CALLING_HOURS_WORKFLOWS } from './calling-hours';
import axios from 'axios';

let h: Harness<N8n>;
let workflows: Workflows;

export function exampleImports(suite: ExamplesSuite): void {
	beforeAll(() => {
		({ h, workflows } = suite);
	});

	test('every example imports, and every node type it uses is known to n8n', async () => {
		expect(
			workflows.list
				.map((w) => w.id)
				.filter((id) => id !== perItem.id && !CALLING_HOURS_WORKFLOWS.includes(id))
				.sort(),
		).toEqual(
			[
				'aiagentcallandwait',
				'aiagenttools',
				'bridgesetup',
				'mcpserver',
				'spreadsheettotasks',
				'datatablecampaign',
				'datatablecampaigncont',
				'unpoddailyreport',
				'unpodcalleventstocrm',
				'unpodrecordingstofile',
				'unpodtriggertocrm',
				'unpodtriggertocsv',
				'hubspotcalls',
				'superdialogcallerlook',
				'googlesheetscampaign',
				'sheetcalls',
				'sheetoutcomes',
				'pipedrivecalls',
				'salesforcecalls',
				'highlevelcalls',
			].sort(),
		);
		// The node types the running n8n loaded, as its editor reads them.
		const n8n = await suite.startN8n();
		const types = await axios.get(`${n8n.url}/types/nodes.json`, {
			headers: { Cookie: n8n.cookie },
			validateStatus: () => true,
		});
		expect(types.status).toBe(200);
		// A node of several implementations (n8n's VersionedNodeType, listed once per version)
		// runs only at a version it has: there the version must be known too. Other nodes run
		// whatever version a workflow names.
		const exportedNodes = types.data as Array<{ name: string; version: number | number[] }>;
		const entries = (name: string) => exportedNodes.filter((n) => n.name === name);
		const unknown = workflows.list.flatMap((w) =>
			w.nodes
				.filter((n) => {
					const found = entries(n.type);
					if (found.length <= 1) return found.length === 0;
					return !found.some((e) => [e.version].flat().includes(n.typeVersion ?? 1));
				})
				.map((n) => `${w.id}: ${n.type}@${n.typeVersion}`),
		);
		expect(unknown).toEqual([]);
		for (const type of [
			'unpodTask',
			'unpodAgent',
			'unpodSpace',
			'unpodBridge',
			'unpodTrigger',
			'unpodCallEventsTrigger',
			'unpodTaskTool',
			'unpodAgentTool',
		]) {
			expect(entries(`n8n-nodes-unpod.${type}`).length).toBeGreaterThan(0);
		}
	});
}
