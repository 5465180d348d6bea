/**
 * The Salesforce twin read by `jsforce`, pointed at it: the SOQL the example writes, sObjects
 * created and retrieved, Salesforce's error shapes.
 */
import { Connection } from 'jsforce';
import { SalesforceTwin } from '../../dev/twins/salesforce';
import { startTwins, type RunningTwins } from '../../dev/twins/serve';

const TOKEN = '00Dtwin!sdk-check';
const twin = new SalesforceTwin(TOKEN);
let running: RunningTwins;
let conn: Connection;

beforeAll(async () => {
	running = await startTwins([twin]);
	conn = new Connection({ instanceUrl: running.urls.salesforce, accessToken: TOKEN, version: '59.0' });
});
afterAll(() => running?.stop());

test('a Lead found by phone with SOQL; a call Task created and retrieved; its CallObject queried', async () => {
	const ada = twin.add('Lead', { FirstName: 'Ada', LastName: 'Stone', Phone: '+12125700201', Company: 'Stone & Co' });
	twin.add('Lead', { LastName: 'Other', Phone: '+12125700299', Company: 'X' });
	const found = await conn.query<{ Id: string }>("SELECT Id FROM Lead WHERE Phone = '+12125700201' LIMIT 1");
	expect(found).toMatchObject({ totalSize: 1, done: true });
	expect(found.records.map((r) => r.Id)).toEqual([ada.Id]);

	const created = await conn.sobject('Task').create({
		Status: 'Completed',
		TaskSubtype: 'Call',
		WhoId: ada.Id,
		CallObject: 'T0123',
		CallDurationInSeconds: 61,
	});
	expect(created).toMatchObject({ success: true });
	const id = (created as { id: string }).id;
	expect(await conn.sobject('Task').retrieve(id)).toMatchObject({ Id: id, WhoId: ada.Id, CallDurationInSeconds: 61 });
	const byCall = await conn.query<{ Id: string }>("SELECT Id FROM Task WHERE CallObject = 'T0123' LIMIT 1");
	expect(byCall.records.map((r) => r.Id)).toEqual([id]);
	expect((await conn.query("SELECT Id FROM Task WHERE CallObject = 'T9999'")).totalSize).toBe(0);
});

test('a missing required field, a wrong token and the API limit answer in Salesforce’s shapes', async () => {
	await expect(conn.sobject('Lead').create({ FirstName: 'No', LastName: 'Company' })).rejects.toMatchObject({
		errorCode: 'REQUIRED_FIELD_MISSING',
	});
	const wrong = new Connection({ instanceUrl: running.urls.salesforce, accessToken: 'wrong', version: '59.0' });
	await expect(wrong.query('SELECT Id FROM Lead')).rejects.toMatchObject({ errorCode: 'INVALID_SESSION_ID' });
	twin.rateLimit('GET', /\/query$/);
	await expect(conn.query('SELECT Id FROM Lead')).rejects.toMatchObject({ errorCode: 'REQUEST_LIMIT_EXCEEDED' });
});

test('DoNotCall: false unless set; set with PATCH as a boolean (text refused, as Salesforce does); queried by it', async () => {
	const lia = twin.add('Lead', { FirstName: 'Lia', LastName: 'Moss', Phone: '+12125700401', Company: 'Moss Ltd' });
	const open = await conn.query<{ Id: string }>(
		"SELECT Id FROM Lead WHERE Phone = '+12125700401' AND DoNotCall = false",
	);
	expect(open.records.map((r) => r.Id)).toEqual([lia.Id]);
	await expect(
		conn.sobject('Lead').update({ Id: lia.Id, DoNotCall: 'true' as unknown as boolean }),
	).rejects.toMatchObject({
		errorCode: 'JSON_PARSER_ERROR',
	});
	expect(await conn.sobject('Lead').update({ Id: lia.Id, DoNotCall: true })).toMatchObject({ success: true });
	expect(await conn.sobject('Lead').retrieve(lia.Id)).toMatchObject({ DoNotCall: true });
	expect((await conn.query("SELECT Id FROM Lead WHERE Phone = '+12125700401' AND DoNotCall = false")).totalSize).toBe(
		0,
	);
});

test('ORDER BY puts nulls first in either direction unless NULLS LAST, as Salesforce documents', async () => {
	const person = twin.add('Individual', { LastName: 'Order' }).Id;
	const consent = (status: string, CaptureDate: string | null) =>
		twin.add('ContactPointTypeConsent', { PartyId: person, PrivacyConsentStatus: status, CaptureDate }).Id;
	const undated = consent('OptIn', null);
	const april = consent('OptIn', '2026-04-02T10:00:00.000+0000');
	const may = consent('OptOut', '2026-05-02T08:00:00.000+0000');
	const ids = async (order: string) =>
		(
			await conn.query<{ Id: string }>(
				`SELECT Id FROM ContactPointTypeConsent WHERE PartyId = '${person}' ORDER BY CaptureDate ${order}`,
			)
		).records.map((r) => r.Id);
	expect(await ids('DESC')).toEqual([undated, may, april]);
	expect(await ids('ASC')).toEqual([undated, april, may]);
	expect(await ids('DESC NULLS LAST')).toEqual([may, april, undated]);
	expect(await ids('NULLS LAST')).toEqual([april, may, undated]);
});
