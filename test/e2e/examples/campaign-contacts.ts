/**
 * The Data Table campaign's contacts workflow in real n8n: a CSV of 12,000 contacts into the
 * campaign's table in slices of 5,000 at most, in order, one execution per slice.
 */
import { writeFileSync } from 'fs';
import { join } from 'path';
import { CAMPAIGN_COLUMNS } from '../../../dev/harness/campaign';
import { loadExample } from '../../../dev/harness/examples';
import { CREDENTIAL } from '../../helpers/setup';
import type { ExamplesSuite } from './suite';

export function campaignContactsExample(suite: ExamplesSuite): void {
	test("contacts from a CSV into the campaign's table in slices: 12,000 rows in three executions of 5,000 at most, in order", async () => {
		const n8n = await suite.startN8n();
		const table = await n8n.dataTables.create('Campaign contacts', CAMPAIGN_COLUMNS, []);
		// A header, then 12,000 contacts: one with a comma in its name (quoted), every other one without an email.
		const contacts = Array.from({ length: 12_000 }, (_, i) => ({
			name: i === 7_777 ? 'Lee, Sam' : `Slice Contact ${i + 1}`,
			phone: `+1212570${String(i).padStart(5, '0')}`,
			email: i % 2 ? '' : `contact${i}@example.com`,
		}));
		const csv = ['name,phone,email', ...contacts.map((c) => `"${c.name}",${c.phone},${c.email}`)].join('\n') + '\n';
		writeFileSync(join(suite.filesDir, 'slices.csv'), csv);
		const workflow = loadExample('data-table-campaign-contacts.json', {
			callingHours: false,
			consent: false,
			credential: CREDENTIAL.unpodApi,
			filesDir: suite.filesDir,
			dataTable: table,
		});
		for (const node of workflow.nodes.filter((n) => n.type === 'n8n-nodes-base.readWriteFile'))
			node.parameters!.fileSelector = join(suite.filesDir, 'slices.csv');
		await suite.h.n8n.importWorkflows([workflow]);

		expect(await n8n.runManually(workflow.id, 'Add contacts from contacts.csv')).toEqual({ status: 'success' });
		const rows = await n8n.dataTables.rows(table);
		expect(rows.map((r) => [r.name, r.phone, r.status])).toEqual(contacts.map((c) => [c.name, c.phone, 'new']));
		// Rows get ids in the order they are added: the page's count of new rows is their span.
		expect(rows[rows.length - 1].id - rows[0].id + 1).toBe(12_000);
		// The first execution and one per slice (5,000, 5,000, 2,000 rows).
		expect(await n8n.executionCount(workflow.id)).toBe(4);
	}, 180_000);
}
