/**
 * Numbers as people write them (issue 76), in n8n's engine against the local server: a trunk 0
 * after the country code is no digit of the number, whether the number costs more or is on the
 * do-not-call list; a number without a country code is read only in the Default Country Code; the
 * alternate number is checked as the number is; a number in no plan of its code is not called;
 * ordinary numbers once taken for costly ones are called. Each refused contact before any request,
 * its item saying why.
 */
import { outputOf } from '../../../dev/harness/run-results';
import { rowsNode } from '../../../dev/harness/workflow-builders';
import { createInSecondSpace } from '../../helpers/nodes';
import { harnessAt, Workflows } from '../../helpers/setup';
import { SEED } from '../../../dev/server/seed';

const TASKS = `/spaces/${SEED.secondSpaceToken}/tasks/`;

const create = (options: Record<string, unknown> = {}, parameters: Record<string, unknown> = {}) =>
	createInSecondSpace(
		{
			callingHours: false,
			skipExisting: false,
			contactFields: { alternate_number: '={{ $json.alternate ?? "" }}' },
			options,
			...parameters,
		},
		{ onError: 'continueRegularOutput' },
	);

const ROWS = [
	{ name: 'UK premium, (0)', phone: '+44 (0)909 879 0000' },
	{ name: 'No plus', phone: '19005551234' },
	{ name: 'Premium alternate', phone: '+44 20 7946 0111', alternate: '+44 (0)909 879 0000' },
	{ name: 'Japanese mobile', phone: '+81 60-1306-2011' },
	{ name: 'Nanjing', phone: '+86 25 9677 7615' },
	{ name: 'NZ toll-free', phone: '+64 508 894 804' },
	{ name: 'Andorra toll-free', phone: '+376 1800 0750' },
	{ name: 'London, (0)', phone: '+44 (0)20 7946 0888' },
];

const DO_NOT_CALL = [
	{ name: 'Listed without (0)', phone: '+44 (0)20 7946 0888' },
	{ name: 'Listed with (0)', phone: '+44 20 7946 0777' },
	{ name: 'Alternate listed', phone: '+44 20 7946 0111', alternate: '0044 20 7946 0666' },
	{ name: 'Not listed', phone: '+44 020 7946 0222' },
];

const workflows = new Workflows();
const written = workflows.chain('numbersAsWritten', [rowsNode('Sheet', ROWS), create()]);
const unassigned = workflows.chain('numbersUnassigned', [
	rowsNode('Sheet', [{ name: 'Area 755', phone: '(755) 895-2455' }, { name: 'Area 415', phone: '(415) 555-0123' }]),
	create({ defaultCountryCode: '+1' }),
]);
const listed = workflows.chain('numbersDoNotCall', [
	rowsNode('Sheet', DO_NOT_CALL),
	create({}, { doNotCallNumbers: '+44 20 7946 0888\n+44 (0)20 7946 0777\n+44 020 7946 0666' }),
]);

const h = harnessAt(Date.parse('2026-12-01T10:00:00Z'), workflows, { eachTestAtNow: true });
const sent = () =>
	h.server
		.requestsTo('POST', TASKS)
		.flatMap((r) => (r.body as { documents: Array<{ name: string; contact_number: string }> }).documents);

test('a trunk 0, the alternate number, a number without a code; ordinary numbers called as written', async () => {
	const run = await h.run(written);
	expect(run.exitCode).toBe(0);
	const out = outputOf(run, 'Create');
	const byName = Object.fromEntries(out.map((row) => [row.name, row]));
	// Fix 7: the (0) is no digit: +44 909 is premium rate.
	expect(byName['UK premium, (0)']).toMatchObject({
		unpod_created: false,
		unpod_refused:
			'Item 1: +449098790000 is a premium-rate number (+44), which costs far more than a call; not called (Options > Allow Premium-Rate and Satellite Numbers)',
	});
	// Fix 8: no code and no Default Country Code: not called, the item naming the field and the option.
	expect(JSON.stringify(byName['No plus'])).toContain(
		'contact_number \\"19005551234\\" has no country code and Options > Default Country Code is empty: write it with + and its country code, or set Default Country Code',
	);
	expect(byName['No plus'].task_id).toBeUndefined();
	// Fix 9: the alternate number is checked as the number is; a refused one stops the row.
	expect(byName['Premium alternate']).toMatchObject({
		unpod_created: false,
		unpod_refused:
			'Item 3: alternate_number +449098790000 is a premium-rate number (+44), which costs far more than a call; not called (Options > Allow Premium-Rate and Satellite Numbers)',
	});
	// Fix 10 and every number sent in international form.
	expect(sent().map((d) => [d.name, d.contact_number])).toEqual([
		['Japanese mobile', '+816013062011'],
		['Nanjing', '+862596777615'],
		['NZ toll-free', '+64508894804'],
		['Andorra toll-free', '+37618000750'],
		['London, (0)', '+442079460888'],
	]);
	for (const name of ['Japanese mobile', 'Nanjing', 'NZ toll-free', 'Andorra toll-free', 'London, (0)'])
		expect(byName[name].task_id).toMatch(/^T/);
});

test('an unassigned area code is not called, its item saying so; a number of an assigned one is', async () => {
	const run = await h.run(unassigned);
	expect(run.exitCode).toBe(0);
	const [area755, area415] = outputOf(run, 'Create');
	expect(area755).toMatchObject({
		unpod_created: false,
		unpod_refused:
			"Item 1: +17558952455 is not a number in use: +1 755 is not assigned in Google's libphonenumber data; not called",
	});
	expect(area415.task_id).toMatch(/^T/);
	expect(sent().map((d) => d.contact_number)).toEqual(['+14155550123']);
});

test('the do-not-call list stops the same number however it or the entry is written, the alternate number too', async () => {
	const run = await h.run(listed);
	expect(run.exitCode).toBe(0);
	const [without0, with0, alternate, notListed] = outputOf(run, 'Create');
	expect(without0.unpod_refused).toBe(
		'Item 1: +442079460888 is on the do-not-call list (Do-Not-Call Numbers); not called',
	);
	expect(with0.unpod_refused).toBe('Item 2: +442079460777 is on the do-not-call list (Do-Not-Call Numbers); not called');
	expect(alternate.unpod_refused).toBe(
		'Item 3: alternate_number +442079460666 is on the do-not-call list (Do-Not-Call Numbers); not called',
	);
	expect(notListed.task_id).toMatch(/^T/);
	expect(sent().map((d) => d.contact_number)).toEqual(['+442079460222']);
});
