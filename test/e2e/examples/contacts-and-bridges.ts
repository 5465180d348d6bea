/**
 * The examples run as the editor runs them (contacts CSV to call tasks, the bridge setup), the
 * Task node's per-item options in real n8n's parameter resolution, and the recordings workflow,
 * all in the suite's running n8n.
 */
import type { N8n } from '../../../dev/harness/n8n';
import type { Harness } from '../../helpers/setup';
import { type ExamplesSuite, perItem } from './suite';
import { existsSync, mkdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { expectSucceeded, itemsOf, outputOf } from '../../../dev/harness/run-results';
import { waitFor } from '../../helpers/wait-for';
import { onPinnedN8n } from '../../helpers/versions';
import { SEED } from '../../../dev/server/seed';
import type { Task } from '../../../dev/server/types';
import { RECORDING } from '../../../dev/server/recordings';

let h: Harness<N8n>;
let filesDir: string;

export function contactsAndBridges(suite: ExamplesSuite): void {
	beforeAll(() => {
		({ h, filesDir } = suite);
	});

	test('contacts CSV to call tasks: 45 rows created in two requests (one in French, for Quebec); the 4 bad rows and the one on the do-not-call list not created', async () => {
		// Ben Müller (row 2) said no in another campaign: the shared list has him, written another way.
		const doNotCall = await suite.doNotCallTable();
		const n8n = await suite.startN8n();
		await n8n.dataTables.insert(doNotCall, [
			{ phone: '+1 212-555-0141', reason: 'Asked to be taken off the list', source: 'manual', added_at: '' },
		]);
		// In the running n8n, as the editor runs it: `n8n execute` has no Data Tables.
		const run = await n8n.runAndRead('spreadsheettotasks', 'Start import');
		expectSucceeded(run);
		const created = outputOf(run, 'Created');
		expect(created).toHaveLength(45);
		expect(created[0]).toMatchObject({
			name: 'Ava Patel',
			phone: '(212) 555-0140',
			task_id: expect.stringMatching(/^T/),
			task_status: 'pending',
		});
		const notCreated = itemsOf(run, 'Not created').map((i) => i.json);
		// The rows themselves, ready to be fixed and sent again.
		expect(notCreated.map((r) => [r.name, r.phone, r.unpod_created])).toEqual([
			['Ben Müller', '212.555.0141', false],
			[undefined, '212.555.0147', false],
			['Ruby Müller', 'call me', false],
			['Daniel Müller', '12345', false],
			['Paul Müller', undefined, false],
		]);
		expect(notCreated[0].unpod_refused).toBe(
			'Item 2: +12125550141 is on the do-not-call list (Do-Not-Call Numbers); not called',
		);
		expect(notCreated.slice(1).map((r) => r.error)).toEqual([
			'Item 7: name is missing',
			'Item 18: contact_number "call me" is not a phone number (expected an optional + followed by 7 to 15 digits)',
			'Item 30: contact_number "12345" is not a phone number (expected an optional + followed by 7 to 15 digits)',
			'Item 42: contact_number is missing',
		]);
		// One request in English, and one in French for the Quebec number: the opening is in the context.
		const [post, quebec] = h.server.requestsTo('POST', `/spaces/${SEED.spaceToken}/tasks/`);
		expect((post.body as any).documents).toHaveLength(44);
		expect((post.body as any).documents.map((d: any) => d.contact_number)).not.toContain('+12125550141');
		expect((quebec.body as any).documents.map((d: any) => [d.name, d.contact_number])).toEqual([
			['Quinn Patel', '+13547265074'],
		]);
		expect((quebec.body as any).context).toMatch(/^Opening, required by law: .* in French, word for word: "Bonjour/);
		expect((post.body as any).documents[0]).toEqual({
			name: 'Ava Patel',
			contact_number: '+12125550140',
			email: 'ava.patel@example.com',
			company_name: 'Northwind',
			about: 'Asked about pricing',
		});
	});

	test("the Task node's names and its per-item options in real n8n: each row read in its own country", async () => {
		// Called an hour ago and stored by Unpod in national form.
		const [earlier] = h.server.calls.addTasks([{ name: 'London Lead', contact_number: '02079460123' }], {
			space: SEED.secondSpaceToken,
			pilot: SEED.secondAgentHandle,
			context: 'earlier',
		});
		const run = await (await suite.startN8n()).runAndRead(perItem.id, 'Start');
		expectSucceeded(run);
		const rows = outputOf(run, 'Create');
		expect(rows[0]).toMatchObject({ name: 'Berlin Office', task_id: expect.stringMatching(/^T/) });
		expect(rows[0].unpod_skipped).toBeUndefined();
		expect(rows[1]).toMatchObject({ name: 'London Lead', task_id: earlier.task_id });
		expect(rows[1].unpod_skipped).toMatch(/for number \+442079460123 /);
		const [post] = h.server.requestsTo('POST', `/spaces/${SEED.secondSpaceToken}/tasks/`);
		expect(post.body).toMatchObject({
			pilot: SEED.secondAgentHandle,
			context: expect.stringMatching(/^Opening, required by law: .* in German, .*\n\nRenewal reminder$/s),
			documents: [{ name: 'Berlin Office', contact_number: '+49301234567' }],
		});
	});

	onPinnedN8n(
		'bridge setup: creates a bridge with its slug; connects the provider to a number of a bridge',
		async () => {
			const run = await (await suite.startN8n()).runAndRead('bridgesetup', 'Start');
			expectSucceeded(run);
			expect(outputOf(run, 'Create bridge')).toEqual([
				expect.objectContaining({ name: 'Sales Line', slug: 'sales-line' }),
			]);
			const creates = h.server.requestsTo('POST', '/telephony/bridges/').filter((r) => r.path.endsWith('/bridges/'));
			expect(creates.map((r) => r.body)).toEqual([{ name: 'Sales Line', slug: 'sales-line' }]);
			expect(outputOf(run, 'Connect provider')).toEqual([
				expect.objectContaining({ bridge_slug: SEED.bridgeSlug, phone_number: SEED.agentNumber }),
			]);
			const [connect] = h.server.requestsTo('POST', `/telephony/bridges/${SEED.bridgeSlug}/connect-provider/`);
			expect(connect.body).toEqual({
				number_id: SEED.numberId,
				phone_number: SEED.agentNumber,
				provider_credential_id: SEED.activeCredentialId,
				provider_config_id: SEED.activeCredentialId,
			});
			expect(connect.status).toBe(200);
		},
	);

	test('call recordings to files: an active workflow saves each completed call as <task_id>.mp3, every byte', async () => {
		mkdirSync(join(filesDir, 'recordings'), { recursive: true });
		const [done, failed] = h.server.calls.addTasks([
			{ name: 'Recorded', contact_number: '+442071234598' },
			{ name: 'Unanswered', contact_number: '+442071234599' },
		]);
		const polls = () => h.server.requestsTo('GET', `/spaces/${SEED.spaceToken}/tasks/`).length;
		const n8n = await suite.startN8n();
		await n8n.setActive('unpodrecordingstofile', true, polls);
		h.server.store.finishTask(done, 'completed');
		h.server.store.finishTask(failed, 'failed');
		await n8n.nextPoll('unpodrecordingstofile', polls);
		const file = join(filesDir, 'recordings', `${done.task_id}.mp3`);
		await waitFor(
			'the recording saved whole',
			() => existsSync(file) && readFileSync(file).length === RECORDING.length,
		).catch(() => {
			throw new Error(`No recording saved; n8n's log ends:\n${n8n.logTail()}`);
		});
		expect(readFileSync(file).equals(RECORDING)).toBe(true);
		await n8n.setActive('unpodrecordingstofile', false);
		// The example watches completed calls only: the failed one was not fetched.
		expect(h.server.requests.filter((r) => r.path.startsWith('/recordings/')).map((r) => r.path)).toEqual([
			`/recordings/${done.task_id}.mp3`,
		]);
	});
}
