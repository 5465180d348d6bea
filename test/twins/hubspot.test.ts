/**
 * The HubSpot twin read by HubSpot's own SDK (@hubspot/api-client), pointed at it: the
 * answers the HubSpot node reads in the examples parse into the SDK's models.
 */
import { Client } from '@hubspot/api-client';
import { FilterOperatorEnum } from '@hubspot/api-client/lib/codegen/crm/contacts';
import { HubSpotTwin } from '../../dev/twins/hubspot';
import { startTwins, type RunningTwins } from '../../dev/twins/serve';

const TOKEN = 'pat-na1-sdk-check';
const twin = new HubSpotTwin(TOKEN);
let running: RunningTwins;
let client: Client;

beforeAll(async () => {
	running = await startTwins([twin]);
	client = new Client({ accessToken: TOKEN, basePath: running.urls.hubspot, numberOfApiCallRetries: 0 });
});
afterAll(() => running?.stop());

test('a contact search by phone, and a read by id, as the SDK models them', async () => {
	const ada = twin.addContact({
		firstname: 'Ada',
		lastname: 'Stone',
		phone: '+12125400201',
		email: 'ada@example.com',
		budget: '900',
	});
	twin.addContact({ firstname: 'Ben', phone: '+12125400202' });
	const found = await client.crm.contacts.searchApi.doSearch({
		filterGroups: [{ filters: [{ propertyName: 'phone', operator: FilterOperatorEnum.Eq, value: '+12125400201' }] }],
		properties: ['email', 'budget'],
		limit: 1,
	});
	expect(found.total).toBe(1);
	expect(found.results[0].id).toBe(ada.id);
	expect(found.results[0].properties).toEqual({ email: 'ada@example.com', budget: '900' });
	expect(found.results[0].createdAt).toBeInstanceOf(Date);

	const read = await client.crm.contacts.basicApi.getById(ada.id, ['firstname', 'phone']);
	expect(read.properties).toEqual({ firstname: 'Ada', phone: '+12125400201' });
	await expect(client.crm.contacts.basicApi.getById('999')).rejects.toMatchObject({ code: 404 });
});

test('the v1 create-or-update and a call engagement, through the SDK’s raw request', async () => {
	const upsert = await client.apiRequest({
		method: 'POST',
		path: '/contacts/v1/contact/createOrUpdate/email/cleo@example.com',
		body: { properties: [{ property: 'firstname', value: 'Cleo' }] },
	});
	const { vid, isNew } = (await upsert.json()) as { vid: number; isNew: boolean };
	expect(isNew).toBe(true);
	const logged = await client.apiRequest({
		method: 'POST',
		path: '/engagements/v1/engagements',
		body: {
			engagement: { type: 'CALL' },
			associations: { contactIds: [vid] },
			metadata: { status: 'COMPLETED', body: 'Summary' },
		},
	});
	const engagement = (await logged.json()) as { engagement: { id: number } };
	const read = await client.apiRequest({
		method: 'GET',
		path: `/engagements/v1/engagements/${engagement.engagement.id}`,
	});
	expect(await read.json()).toMatchObject({
		engagement: { type: 'CALL' },
		associations: { contactIds: [vid] },
		metadata: { body: 'Summary' },
	});

	const bad = await client.apiRequest({
		method: 'POST',
		path: '/contacts/v1/contact/createOrUpdate/email/cleo@example.com',
		body: { properties: [{ property: 'no_such_property', value: 1 }] },
	});
	expect(bad.status).toBe(400);
	expect(await bad.json()).toMatchObject({
		validationResults: [{ error: 'PROPERTY_DOESNT_EXIST', name: 'no_such_property' }],
	});
});

test('a wrong token gets 401, and a 429 carries Retry-After, in HubSpot’s error shape', async () => {
	const wrong = new Client({ accessToken: 'wrong', basePath: running.urls.hubspot, numberOfApiCallRetries: 0 });
	await expect(wrong.crm.contacts.basicApi.getById('1')).rejects.toMatchObject({ code: 401 });
	twin.rateLimit('POST', /contacts\/search$/, 1, 2);
	const limited = await client.apiRequest({ method: 'POST', path: '/crm/v3/objects/contacts/search', body: {} });
	expect(limited.status).toBe(429);
	expect(limited.headers.get('retry-after')).toBe('2');
	expect(await limited.json()).toMatchObject({ errorType: 'RATE_LIMIT', policyName: 'SECONDLY' });
});
