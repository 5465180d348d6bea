/**
 * The HighLevel twin read by HighLevel's own SDK (`@gohighlevel/api-client`), pointed at it:
 * contacts listed, upserted by phone and read, notes added, HighLevel's error shape.
 */
import { HighLevel } from '@gohighlevel/api-client';
import { HighLevelTwin } from '../../dev/twins/highlevel';
import { startTwins, type RunningTwins } from '../../dev/twins/serve';

const TOKEN = 'pit-sdk-check';
const twin = new HighLevelTwin(TOKEN);
let running: RunningTwins;
let client: HighLevel;

beforeAll(async () => {
	running = await startTwins([twin]);
	client = new HighLevel({ privateIntegrationToken: TOKEN, rateLimitRetry: false, logLevel: 'none' });
	client.getHttpClient().defaults.baseURL = running.urls.highlevel;
});
afterAll(() => running?.stop());

test('a contact upserted by phone keeps its id; read back with its tags and custom field; a note added and listed', async () => {
	const ada = twin.addContact({ firstName: 'Ada', lastName: 'Stone', phone: '+1 212 580 0201', tags: ['vip'] });
	const upserted = await client.contacts.upsertContact({
		locationId: twin.locationId,
		phone: '+12125800201',
		tags: ['vip', 'unpod-interested'],
		customFields: [{ id: 'calls', field_value: 'T1' }],
	} as never);
	expect(upserted).toMatchObject({ new: false, contact: { id: ada.id } });
	const read = await client.contacts.getContact({ contactId: ada.id });
	expect(read.contact).toMatchObject({
		id: ada.id,
		tags: ['vip', 'unpod-interested'],
		customFields: [{ id: 'calls', value: 'T1' }],
	});

	const listed = await client.contacts.getContacts({
		locationId: twin.locationId,
		query: '+12125800201',
		limit: 1,
	} as never);
	expect(listed.contacts?.map((c) => c.id)).toEqual([ada.id]);

	await client.contacts.createNote({ contactId: ada.id }, { body: 'Unpod call: interested' } as never);
	const notes = await client.contacts.getAllNotes({ contactId: ada.id });
	expect(notes.notes?.map((n) => n.body)).toEqual(['Unpod call: interested']);
});

// The tests' axios errors keep the status and body in their message (test/helpers/jest-setup.ts), before the SDK wraps them.
test('a new phone creates a contact; a wrong location, a wrong token and a 429 answer in HighLevel’s shape', async () => {
	const created = await client.contacts.upsertContact({
		locationId: twin.locationId,
		phone: '+12125800203',
		firstName: 'Cleo',
	} as never);
	expect(created).toMatchObject({ new: true, contact: { firstName: 'Cleo', phone: '+12125800203' } });
	await expect(
		client.contacts.upsertContact({ locationId: 'another', phone: '+12125800204' } as never),
	).rejects.toThrow(/-> 403 \{"statusCode":403,"message":"The token does not have access to this location"/);
	const wrong = new HighLevel({ privateIntegrationToken: 'wrong', rateLimitRetry: false, logLevel: 'none' });
	wrong.getHttpClient().defaults.baseURL = running.urls.highlevel;
	await expect(wrong.contacts.getContact({ contactId: 'x' })).rejects.toThrow(
		/-> 401 \{"statusCode":401,"message":"Invalid JWT"/,
	);
	twin.rateLimit('GET', /^\/contacts\//);
	await expect(client.contacts.getContact({ contactId: 'x' })).rejects.toThrow(
		/-> 429 \{"statusCode":429,"message":"Too Many Requests"/,
	);
});

test("Do Not Disturb for calls: set with the SDK's update, read back per channel; an unknown status refused", async () => {
	const dee = twin.addContact({ firstName: 'Dee', lastName: 'Quiet', phone: '+12125800301' });
	await client.contacts.updateContact({ contactId: dee.id }, {
		dndSettings: { Call: { status: 'active', message: 'Asked on a call', code: '' } },
	} as never);
	const read = await client.contacts.getContact({ contactId: dee.id });
	expect(read.contact).toMatchObject({ dndSettings: { Call: { status: 'active', message: 'Asked on a call' } } });
	expect((read.contact as { dnd?: boolean }).dnd).toBeUndefined();
	await expect(
		client.contacts.updateContact({ contactId: dee.id }, { dndSettings: { Call: { status: 'on' } } } as never),
	).rejects.toThrow(/-> 422 \{"statusCode":422,"message":\["dndSettings.Call.status must be one of/);
	expect((await client.contacts.getContact({ contactId: dee.id })).contact).toMatchObject({
		dndSettings: { Call: { status: 'active' } },
	});
});
