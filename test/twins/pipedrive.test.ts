/**
 * The Pipedrive twin read by Pipedrive's own SDK (`pipedrive`, its v1 API: the one the n8n node
 * calls), pointed at it: persons searched and read, custom fields, deals by stage, activities.
 */
import { v1 } from 'pipedrive';
import { PipedriveTwin } from '../../dev/twins/pipedrive';
import { startTwins, type RunningTwins } from '../../dev/twins/serve';

const TOKEN = 'sdk-check-token';
const twin = new PipedriveTwin(TOKEN);
let running: RunningTwins;
let config: v1.Configuration;

beforeAll(async () => {
	running = await startTwins([twin]);
	config = new v1.Configuration({ apiKey: TOKEN, basePath: `${running.urls.pipedrive}/v1` });
});
afterAll(() => running?.stop());

test('a person found by exact phone, read with its custom field, updated; the person fields listed', async () => {
	const key = twin.addPersonField('Unpod calls');
	const ada = twin.addPerson('Ada Stone', '+12125600201', 'ada@example.com');
	twin.addPerson('Ada Other', '+12125600299');
	const persons = new v1.PersonsApi(config);
	const found = await persons.searchPersons({ term: '+12125600201', fields: 'phone', exact_match: true });
	expect(found.success).toBe(true);
	expect(found.data?.items?.map((i) => i.item?.id)).toEqual([ada.id]);
	expect(found.data?.items?.[0].item?.phones).toEqual(['+12125600201']);

	await persons.updatePerson({ id: ada.id, UpdatePersonRequest: { [key]: 'T1' } as never });
	const read = await persons.getPerson({ id: ada.id });
	expect(read.data).toMatchObject({ id: ada.id, name: 'Ada Stone', [key]: 'T1' });
	expect(read.data?.phone?.[0]).toMatchObject({ value: '+12125600201', primary: true });

	const fields = await new v1.PersonFieldsApi(config).getPersonFields();
	expect(fields.data?.find((f) => f.name === 'Unpod calls')).toMatchObject({ key, field_type: 'text' });
});

test('deals of a stage with their person inline, an activity added, in Pipedrive’s envelope', async () => {
	const mia = twin.addPerson('Mia Chen', '+12125600101');
	const deal = twin.addDeal('Northwind', mia, 7);
	const deals = await new v1.DealsApi(config).getDeals({ stage_id: 7 });
	expect(deals.data?.map((d) => d.id)).toEqual([deal.id]);
	expect(deals.data?.[0].person_id).toMatchObject({ value: mia.id, name: 'Mia Chen' });
	// What the n8n node pages by (the SDK types this envelope more narrowly).
	expect((deals.additional_data as { pagination?: unknown } | undefined)?.pagination).toMatchObject({
		more_items_in_collection: false,
	});

	const added = await new v1.ActivitiesApi(config).addActivity({
		AddActivityRequest: {
			subject: 'Unpod call: interested',
			type: 'call',
			done: 1,
			person_id: mia.id,
			deal_id: deal.id,
			note: 'Summary',
		},
	});
	expect(added.success).toBe(true);
	expect(added.data).toMatchObject({ type: 'call', person_id: mia.id, deal_id: deal.id });
});

test('a wrong token gets 401 and a 429 its Retry-After, in Pipedrive’s error shape', async () => {
	const wrong = new v1.PersonsApi(new v1.Configuration({ apiKey: 'wrong', basePath: `${running.urls.pipedrive}/v1` }));
	// The tests' axios errors keep the status and body in their message (test/helpers/jest-setup.ts).
	await expect(wrong.getPerson({ id: 1 })).rejects.toThrow(
		/-> 401 \{"success":false,"error":"unauthorized access","errorCode":401/,
	);
	twin.rateLimit('GET', /^\/v1\/persons\/search$/, 1, 2);
	await expect(new v1.PersonsApi(config).searchPersons({ term: '+12125600201' })).rejects.toThrow(
		/-> 429 \{"success":false,"error":"Request over limit","errorCode":429/,
	);
	expect(twin.sent('GET', /search$/).pop()?.status).toBe(429);
});
