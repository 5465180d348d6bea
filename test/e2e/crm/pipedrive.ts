/**
 * The Pipedrive example in a real n8n, the Pipedrive node's requests led by HTTPS_PROXY to a
 * twin of Pipedrive's API: deals in a stage become calls of their persons; each ending is a
 * call activity on the person (found by id, by phone, or created) and the deal, logged once;
 * an interested verdict moves the deal.
 */
import type { IDataObject } from 'n8n-workflow';
import type { N8n } from '../../../dev/harness/n8n';
import { waitFor } from '../../helpers/wait-for';
import type { N8nServer } from '../../../dev/harness/n8n-server';
import type { Harness } from '../../helpers/setup';
import {
	activateOutcomes,
	deliverAgain,
	expectListedOnce,
	optOut,
	outcomeOf,
	startWithListed,
	waitForLanding,
	type TwinSuite,
} from '../../helpers/twins';
import { PipedriveTwin } from '../../../dev/twins/pipedrive';
import { SEED } from '../../../dev/server/seed';
import { testNote } from '../../helpers/notes';

const TOKEN = '0123456789abcdef0123456789abcdef01234567';
const pipedrive = new PipedriveTwin(TOKEN);
const CREDENTIALS = [
	{ id: 'pipedriveTwin', name: 'Pipedrive (twin)', type: 'pipedriveApi', data: { apiToken: TOKEN } },
];
const TO_CALL = 2;
const DEMO = 4;

export function pipedriveExamples(suite: TwinSuite): void {
	const [PIPEDRIVE] = suite.add(pipedrive, CREDENTIALS, ['pipedrive-calls.json']);
	// The stages a user picks: the deals to call, and where an interested person's deal goes.
	for (const node of PIPEDRIVE.nodes) {
		if (node.name === 'Deals to call') node.parameters!.filters = { stage_id: TO_CALL };
		if (node.name === 'Move the deal') node.parameters!.updateFields = { stage_id: DEMO };
	}
	let h: Harness<N8n>;
	let n8n: N8nServer;
	beforeAll(() => {
		h = suite.h;
		n8n = suite.n8n;
		pipedrive.addPersonField('Unpod calls');
		pipedrive.addPersonField('Unpod do not call');
	});

	describe('Pipedrive', () => {
		test('the deals of a stage become calls of their persons, the person and deal ids going with each; run again, nobody is called twice', async () => {
			const mia = pipedrive.addPerson('Mia Chen', '+12125600101', 'mia@example.com');
			const leo = pipedrive.addPerson('Leo Park', '+12125600102');
			const deals = [
				pipedrive.addDeal('Northwind renewal', mia, TO_CALL),
				pipedrive.addDeal('Contoso pilot', leo, TO_CALL),
			];
			pipedrive.addDeal('Already won', pipedrive.addPerson('Won Person', '+12125600109'), 9);

			expect(await n8n.runManually(PIPEDRIVE.id, 'Start the calls')).toEqual({ status: 'success' });
			const [create] = h.server.requestsTo('POST', `/spaces/${SEED.spaceToken}/tasks/`);
			expect((create.body as { documents: unknown[] }).documents).toEqual([
				{
					name: 'Mia Chen',
					contact_number: '+12125600101',
					email: 'mia@example.com',
					document_id: String(mia.id),
					deal_id: String(deals[0].id),
				},
				{ name: 'Leo Park', contact_number: '+12125600102', document_id: String(leo.id), deal_id: String(deals[1].id) },
			]);
			expect(await n8n.runManually(PIPEDRIVE.id, 'Start the calls')).toEqual({ status: 'success' });
			expect(h.server.requestsTo('POST', `/spaces/${SEED.spaceToken}/tasks/`)).toHaveLength(1);
		});

		test('each ending is one call activity on its person and deal; an interested verdict moves the deal; a 429 retried; copies change nothing', async () => {
			const outcomes = await activateOutcomes(h, n8n, PIPEDRIVE);
			try {
				const ada = pipedrive.addPerson('Ada Stone', '+12125600201', 'ada@example.com');
				const adaDeal = pipedrive.addDeal('Stone & Co', ada, TO_CALL);
				const ben = pipedrive.addPerson('Ben Ortiz', '+12125600202');
				const persons = pipedrive.persons.size;
				const [adaCall, benCall, cleoCall] = h.server.calls.addTasks([
					{
						name: 'Ada Stone',
						contact_number: '+12125600201',
						document_id: String(ada.id),
						deal_id: String(adaDeal.id),
					},
					{ name: 'Ben Ortiz', contact_number: '+12125600202' },
					{ name: 'Cleo Nguyen', contact_number: '+12125600203', email: 'cleo@example.com' },
				]);
				pipedrive.rateLimit('POST', /^\/v1\/activities$/);
				const from = pipedrive.requests.length;
				// Ada is interested (her deal moves).
				h.server.calls.callScripts = [
					{ number: '+12125600201', end: 'completed', afterMs: 100, outcome: 'interested' },
				];
				h.server.calls.planCalls([adaCall]);
				// Ben is not reached; Cleo's call ends as the task id picks.
				h.server.store.finishTask(benCall, 'failed');
				h.server.store.finishTask(cleoCall, 'completed');
				await waitForLanding(
					h,
					n8n,
					PIPEDRIVE,
					pipedrive,
					'three call activities in Pipedrive',
					() => pipedrive.activities.length === 3,
					from,
				);

				// Cleo was not in Pipedrive: created with what Unpod has.
				expect(pipedrive.persons.size).toBe(persons + 1);
				const cleo = [...pipedrive.persons.values()].find((p) => p.name === 'Cleo Nguyen')!;
				expect(cleo.phone[0].value).toBe('+12125600203');
				expect(cleo.email[0].value).toBe('cleo@example.com');
				for (const [person, task, dealId] of [
					[ada, adaCall, adaDeal.id],
					[ben, benCall, null],
					[cleo, cleoCall, null],
				] as const) {
					const flat = outcomeOf(h, task);
					const logged = pipedrive.activities.filter((a) => a.person_id === person.id);
					expect(logged).toHaveLength(1);
					expect(logged[0]).toMatchObject({
						type: 'call',
						done: 1,
						deal_id: dealId,
						subject: task === benCall ? `Unpod call: not reached (${flat.call_status})` : `Unpod call: ${flat.outcome}`,
					});
					expect(String(logged[0].note)).toContain(`Unpod task ${task.task_id}`);
					if (task !== benCall) {
						expect(String(logged[0].note)).toContain(String(flat.call_summary));
						for (const [key, value] of Object.entries(flat.structured_data as IDataObject))
							expect(String(logged[0].note)).toContain(`${key} = ${value}`);
					} else expect(String(logged[0].note)).toContain('The call did not reach the person');
					expect(pipedrive.field(pipedrive.persons.get(person.id)!, 'Unpod calls')).toBe(task.task_id);
				}
				expect(outcomeOf(h, adaCall).outcome).toBe('interested');
				expect(pipedrive.deals.get(adaDeal.id)!.stage_id).toBe(DEMO);

				const sent = pipedrive.requests.slice(from);
				expect(
					sent
						.filter((r) => r.path === '/v1/activities')
						.map((r) => r.status)
						.sort(),
				).toEqual([201, 201, 201, 429]);
				const perEnding = (task: typeof adaCall) =>
					sent.filter((r) => JSON.stringify(r.body ?? '').includes(task.task_id)).length;
				testNote(
					`Pipedrive: ${sent.filter((r) => r.status !== 429).length} requests for three endings (one 429 retried besides): ` +
						`${sent.filter((r) => r.path === '/v1/personFields').length} reads of the person fields, ${sent.filter((r) => r.path === '/v1/persons/search').length} searches by phone, ` +
						`${sent.filter((r) => r.method === 'POST' && r.path === '/v1/persons').length} person created, ${sent.filter((r) => r.path.startsWith('/v1/deals/')).length} deal moved`,
				);

				// Every copy stops at its claim, before Pipedrive is asked anything.
				const again = await deliverAgain(
					h,
					n8n,
					PIPEDRIVE,
					pipedrive,
					[adaCall, benCall, cleoCall],
					outcomes.polls,
					suite.claims,
				);
				expect(again).toEqual([]);
				expect(pipedrive.activities).toHaveLength(3);
			} finally {
				h.server.calls.callScripts = [];
				await outcomes.deactivate();
			}
		});

		test('do-not-call both ways: a listed number is not called; an opt-out sets Unpod do not call in the same update and joins the shared list, once', async () => {
			const lou = pipedrive.addPerson('Lou Listed', '+12125600502');
			const noor = pipedrive.addPerson('Noor Open', '+12125600503');
			const deals = [pipedrive.addDeal('Listed deal', lou, TO_CALL), pipedrive.addDeal('Open deal', noor, TO_CALL)];
			const sent = await startWithListed(suite, PIPEDRIVE, '212-560-0502', 'deal_id');
			expect(sent).toEqual([String(deals[1].id)]);

			const outcomes = await activateOutcomes(h, n8n, PIPEDRIVE);
			try {
				const ola = pipedrive.addPerson('Ola Optout', '+12125600504');
				const from = pipedrive.requests.length;
				const call = optOut(h, { name: 'Ola Optout', contact_number: '+12125600504', document_id: String(ola.id) });
				const flag = pipedrive.personFields.find((f) => f.name === 'Unpod do not call')!.key;
				await waitForLanding(h, n8n, PIPEDRIVE, pipedrive, "Ola's Unpod do not call", () => ola[flag] === 'yes', from);
				const updates = pipedrive.requests.slice(from).filter((r) => r.method === 'PUT' && /\/persons\//.test(r.path));
				expect(updates).toHaveLength(1);
				const sentForIt = pipedrive.requests.length - from;
				await expectListedOnce(suite, PIPEDRIVE, pipedrive, call, outcomes.polls);
				testNote(`Pipedrive opt-out: ${sentForIt} requests (the flag in the person update: none more); copies: 0`);
			} finally {
				await outcomes.deactivate();
			}
		});
	});
}
