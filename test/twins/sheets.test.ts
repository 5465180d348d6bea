/**
 * The Google Sheets twin read by Google's own client (`@googleapis/sheets`), pointed at it:
 * a spreadsheet's sheets, values by A1 range, batch updates, Google's error shape.
 */
import { sheets_v4, sheets } from '@googleapis/sheets';
import { SheetsTwin } from '../../dev/twins/sheets';
import { startTwins, type RunningTwins } from '../../dev/twins/serve';

const TOKEN = 'ya29.sdk-check';
const twin = new SheetsTwin(TOKEN);
let running: RunningTwins;
let client: sheets_v4.Sheets;
// Node's own fetch: gaxios would import node-fetch (an ES module) dynamically, which Jest's VM refuses.
const auth = { headers: { Authorization: `Bearer ${TOKEN}` }, fetchImplementation: fetch };

beforeAll(async () => {
	running = await startTwins([twin]);
	client = sheets({ version: 'v4', rootUrl: `${running.urls.sheets}/` });
});
afterAll(() => running?.stop());

test('the sheets of a spreadsheet, and values read by range as Google trims them', async () => {
	const book = twin.addSpreadsheet(
		'Campaign',
		'Leads',
		['id', 'name', 'phone', 'status'],
		[
			{ id: 1, name: 'Ada', phone: '+12125500001', status: 'new' },
			{ id: 2, name: 'Ben', phone: '+12125500002' },
		],
	);
	const meta = await client.spreadsheets.get({ spreadsheetId: book.id, fields: 'sheets.properties' }, auth);
	expect(meta.data.sheets?.map((s) => s.properties?.title)).toEqual(['Leads']);
	expect(meta.data.sheets?.[0].properties?.gridProperties?.columnCount).toBeGreaterThanOrEqual(26);

	const all = await client.spreadsheets.values.get(
		{ spreadsheetId: book.id, range: 'Leads', valueRenderOption: 'UNFORMATTED_VALUE' },
		auth,
	);
	expect(all.data.values).toEqual([
		['id', 'name', 'phone', 'status'],
		[1, 'Ada', '+12125500001', 'new'],
		[2, 'Ben', '+12125500002'],
	]);
	const header = await client.spreadsheets.values.get({ spreadsheetId: book.id, range: 'Leads!1:1' }, auth);
	expect(header.data).toMatchObject({
		range: 'Leads!A1:D1',
		majorDimension: 'ROWS',
		values: [['id', 'name', 'phone', 'status']],
	});
});

test('a batch update writes cells, USER_ENTERED reads numbers as numbers; errors in Google’s shape', async () => {
	const book = twin.addSpreadsheet('Campaign', 'Leads', ['id', 'status', 'attempt'], [{ id: 1, status: 'new' }]);
	const written = await client.spreadsheets.values.batchUpdate(
		{
			spreadsheetId: book.id,
			requestBody: { valueInputOption: 'USER_ENTERED', data: [{ range: 'Leads!B2:C2', values: [['calling', '1']] }] },
		},
		auth,
	);
	expect(written.data).toMatchObject({ totalUpdatedCells: 2, responses: [{ updatedRange: 'Leads!B2:C2' }] });
	expect(twin.records(book.id, 'Leads')).toEqual([{ id: 1, status: 'calling', attempt: 1 }]);

	await expect(
		client.spreadsheets.values.get(
			{ spreadsheetId: book.id, range: 'Leads' },
			{ headers: { Authorization: 'Bearer wrong' }, fetchImplementation: fetch },
		),
	).rejects.toMatchObject({
		status: 401,
	});
	twin.rateLimit('POST', /values:batchUpdate$/);
	await expect(
		client.spreadsheets.values.batchUpdate(
			{
				spreadsheetId: book.id,
				requestBody: { valueInputOption: 'RAW', data: [{ range: 'Leads!B2', values: [['x']] }] },
			},
			{ ...auth, retry: false },
		),
	).rejects.toMatchObject({ status: 429, message: expect.stringMatching(/Quota exceeded/) });
	expect(twin.records(book.id, 'Leads')[0].status).toBe('calling');
});
