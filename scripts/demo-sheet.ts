/**
 * The demo's stand-in for a Google Sheet: the Sheets twin, reached by n8n's own Google Sheets
 * node through n8n's proxy support, holding a few leads, and a page that shows its rows, so a
 * newcomer runs the first sheet examples with no Google account and watches each row change.
 */
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';
import { EXAMPLE_CONSENT, SHEET_EXAMPLE_COLUMNS } from '../dev/harness/examples';
import { SheetsTwin } from '../dev/twins/sheets';
import { startTwins, type RunningTwins } from '../dev/twins/serve';

const ACCESS_TOKEN = 'ya29.demo-stand-in-sheet';
export const SHEET_TAB = 'Sheet1';
/** What each lead agreed to, as the sheet's consent columns keep it (a US sales call needs the wording). */
const CONSENT = EXAMPLE_CONSENT;
/**
 * Leads in three countries (each called in its own hours), one who must never be called, and one
 * whose consent the sheet does not hold (not called: the law of the US asks it of every AI call).
 */
const LEADS: Array<Record<string, string>> = [
	{ name: 'Ava Stone', phone: '+14155550171', ...CONSENT },
	{ name: 'Ben Ortiz', phone: '+44 20 7946 0172', ...CONSENT },
	{ name: 'Chloe Martin', phone: '+61 2 5550 0173', ...CONSENT },
	{ name: 'Dee Park', phone: '+14155550174', do_not_call: 'TRUE', ...CONSENT },
	{ name: 'Eli Grant', phone: '+14155550175' },
];

/** The Google Sheets credential n8n holds for the stand-in, as the examples name it. */
export const SHEET_CREDENTIAL = { id: 'sheetStandIn', name: 'Google Sheets (local stand-in)' };

export interface StandInSheet {
	spreadsheetId: string;
	/** A page showing the sheet's rows as they are now. */
	viewUrl: string;
	/** What n8n's environment needs to reach it (HTTPS_PROXY, the test CA). */
	env: Record<string, string>;
	credential: { id: string; name: string; type: string; data: Record<string, unknown> };
	stop(): Promise<void>;
}

const escape = (value: unknown) =>
	String(value).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

export async function startStandInSheet(): Promise<StandInSheet> {
	const twin = new SheetsTwin(ACCESS_TOKEN);
	const spreadsheet = twin.addSpreadsheet('My leads (local stand-in)', SHEET_TAB, SHEET_EXAMPLE_COLUMNS, LEADS);
	const twins: RunningTwins = await startTwins([twin]);
	const page: Server = createServer((_req, res) => {
		const rows = twin.records(spreadsheet.id, SHEET_TAB);
		const cells = (row: Record<string, unknown>) =>
			SHEET_EXAMPLE_COLUMNS.map((h) => `<td>${escape(row[h] ?? '')}</td>`).join('');
		res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
		res.end(
			`<!doctype html><meta http-equiv="refresh" content="5"><title>${escape(spreadsheet.title)}</title>` +
				'<style>body{font:14px sans-serif}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}</style>' +
				`<h1>${escape(spreadsheet.title)}: ${SHEET_TAB}</h1><p>Refreshes every 5 seconds.</p>` +
				`<table><tr>${SHEET_EXAMPLE_COLUMNS.map((h) => `<th>${h}</th>`).join('')}</tr>` +
				rows.map((row) => `<tr>${cells(row)}</tr>`).join('') +
				'</table>',
		);
	});
	await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
	return {
		spreadsheetId: spreadsheet.id,
		viewUrl: `http://127.0.0.1:${(page.address() as AddressInfo).port}/`,
		env: twins.env(),
		credential: {
			...SHEET_CREDENTIAL,
			type: 'googleSheetsOAuth2Api',
			data: {
				clientId: 'stand-in.apps.googleusercontent.com',
				clientSecret: 'stand-in-client-secret',
				oauthTokenData: {
					access_token: ACCESS_TOKEN,
					refresh_token: '1//stand-in',
					token_type: 'Bearer',
					expires_in: 3599,
				},
			},
		},
		async stop() {
			page.closeAllConnections();
			await new Promise((resolve) => page.close(resolve));
			await twins.stop();
		},
	};
}
