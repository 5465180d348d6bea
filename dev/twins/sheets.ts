/**
 * Google Sheets API v4 as the Google Sheets node (v4.x, OAuth2) and `@googleapis/sheets` use it:
 * a spreadsheet's sheets, values read by A1 range, values written by range and in batches.
 * Answers and errors in Google's shapes (developers.google.com/sheets/api/reference/rest).
 */
import { match, Twin, type TwinReply, type TwinRequest } from './twin';

type Cell = string | number | boolean;

interface Sheet {
	sheetId: number;
	title: string;
	rows: Cell[][];
}

interface Spreadsheet {
	id: string;
	title: string;
	sheets: Sheet[];
}

interface Range {
	sheet: Sheet;
	/** 0-based, inclusive; undefined: open. */
	startRow: number;
	endRow?: number;
	startCol: number;
	endCol?: number;
}

const column = (letters: string) => [...letters.toUpperCase()].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0) - 1;
const letters = (index: number): string =>
	(index < 26 ? '' : letters(Math.floor(index / 26) - 1)) + String.fromCharCode(65 + (index % 26));

export class SheetsTwin extends Twin {
	readonly name = 'sheets';
	readonly hosts = ['sheets.googleapis.com'];
	readonly spreadsheets = new Map<string, Spreadsheet>();

	constructor(readonly accessToken: string) {
		super();
	}

	/** A spreadsheet with one sheet: a header row and the rows under it. */
	addSpreadsheet(title: string, sheetTitle: string, header: string[], rows: Array<Record<string, Cell>>): Spreadsheet {
		const id = `1${'x'.repeat(10)}${this.nextId(100_000)}SheetTwin`;
		const sheet: Sheet = {
			sheetId: this.nextId(0),
			title: sheetTitle,
			rows: [header, ...rows.map((r) => header.map((h) => r[h] ?? ''))],
		};
		const spreadsheet = { id, title, sheets: [sheet] };
		this.spreadsheets.set(id, spreadsheet);
		return spreadsheet;
	}

	/** A sheet's rows as objects by its header, as a user reads them. */
	records(spreadsheetId: string, sheetTitle: string): Array<Record<string, Cell>> {
		const sheet = this.spreadsheets.get(spreadsheetId)?.sheets.find((s) => s.title === sheetTitle);
		if (!sheet) throw new Error(`No sheet ${sheetTitle}`);
		const [header, ...rows] = sheet.rows;
		return rows.map((row) => Object.fromEntries(header.map((h, i) => [String(h), row[i] ?? ''])));
	}

	protected authorized(request: TwinRequest): boolean {
		return request.headers.authorization === `Bearer ${this.accessToken}`;
	}

	protected unauthorized(): TwinReply {
		return this.error(
			401,
			'UNAUTHENTICATED',
			'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
		);
	}

	protected tooMany(): TwinReply {
		return this.error(
			429,
			'RESOURCE_EXHAUSTED',
			"Quota exceeded for quota metric 'Write requests' and limit 'Write requests per minute per user' of service 'sheets.googleapis.com'.",
		);
	}

	private error(code: number, status: string, message: string): TwinReply {
		return { status: code, body: { error: { code, message, status } } };
	}

	protected route(request: TwinRequest): TwinReply | undefined {
		const { method, path, body, query } = request;
		let params = match('/v4/spreadsheets/:id', path);
		if (method === 'GET' && params) {
			const spreadsheet = this.spreadsheets.get(params.id);
			if (!spreadsheet) return this.error(404, 'NOT_FOUND', 'Requested entity was not found.');
			return { status: 200, body: this.metadata(spreadsheet) };
		}
		const batch = /^\/v4\/spreadsheets\/([^/]+)\/values:batchUpdate$/.exec(path);
		if (method === 'POST' && batch) return this.batchUpdate(decodeURIComponent(batch[1]), body ?? {});
		params = match('/v4/spreadsheets/:id/values/:range', path);
		if (params) {
			const spreadsheet = this.spreadsheets.get(params.id);
			if (!spreadsheet) return this.error(404, 'NOT_FOUND', 'Requested entity was not found.');
			const range = this.parse(spreadsheet, params.range.replace(/:append$/, ''));
			if (!range) return this.error(400, 'INVALID_ARGUMENT', `Unable to parse range: ${params.range}`);
			if (method === 'GET')
				return { status: 200, body: this.read(range, query.get('valueRenderOption') ?? 'FORMATTED_VALUE') };
			if (method === 'PUT') {
				const written = this.write(range, body?.values ?? [], query.get('valueInputOption') ?? 'RAW');
				return { status: 200, body: { spreadsheetId: spreadsheet.id, ...written } };
			}
		}
		return undefined;
	}

	private metadata(spreadsheet: Spreadsheet) {
		return {
			spreadsheetId: spreadsheet.id,
			properties: { title: spreadsheet.title, locale: 'en_US', timeZone: 'Etc/GMT' },
			sheets: spreadsheet.sheets.map((s, index) => ({
				properties: {
					sheetId: s.sheetId,
					title: s.title,
					index,
					sheetType: 'GRID',
					gridProperties: {
						rowCount: Math.max(1000, s.rows.length),
						columnCount: Math.max(26, ...s.rows.map((r) => r.length)),
					},
				},
			})),
			spreadsheetUrl: `https://docs.google.com/spreadsheets/d/${spreadsheet.id}/edit`,
		};
	}

	/** An A1 range: `Leads`, `'Leads'!A:Z`, `Leads!1:1`, `Leads!D5`, `Leads!A2:M20`. */
	private parse(spreadsheet: Spreadsheet, a1: string): Range | undefined {
		const [rawSheet, cells] = a1.includes('!')
			? [a1.slice(0, a1.lastIndexOf('!')), a1.slice(a1.lastIndexOf('!') + 1)]
			: [a1, ''];
		const sheet = spreadsheet.sheets.find((s) => s.title === rawSheet.replace(/^'(.*)'$/, '$1').replace(/''/g, "'"));
		if (!sheet) return undefined;
		if (!cells) return { sheet, startRow: 0, startCol: 0 };
		const found = /^([A-Za-z]*)(\d*)(?::([A-Za-z]*)(\d*))?$/.exec(cells);
		if (!found) return undefined;
		const [, c1, r1, c2, r2] = found;
		const single = !cells.includes(':');
		return {
			sheet,
			startCol: c1 ? column(c1) : 0,
			endCol: single ? (c1 ? column(c1) : undefined) : c2 ? column(c2) : undefined,
			startRow: r1 ? Number(r1) - 1 : 0,
			endRow: single ? (r1 ? Number(r1) - 1 : undefined) : r2 ? Number(r2) - 1 : undefined,
		};
	}

	/** Values of a range as Google gives them: rows and cells past the last value left out. */
	private read(range: Range, render: string) {
		const rows = range.sheet.rows.slice(range.startRow, range.endRow === undefined ? undefined : range.endRow + 1);
		const values = rows.map((row) => {
			const cells = row.slice(range.startCol, range.endCol === undefined ? undefined : range.endCol + 1);
			while (cells.length && cells[cells.length - 1] === '') cells.pop();
			return render === 'FORMATTED_VALUE' ? cells.map((c) => String(c)) : cells;
		});
		while (values.length && values[values.length - 1].length === 0) values.pop();
		const lastCol = range.startCol + Math.max(0, ...values.map((v) => v.length)) - 1;
		return {
			range: `${range.sheet.title}!${letters(range.startCol)}${range.startRow + 1}:${letters(Math.max(lastCol, range.startCol))}${range.startRow + Math.max(values.length, 1)}`,
			majorDimension: 'ROWS',
			...(values.length ? { values } : {}),
		};
	}

	private write(range: Range, values: unknown[][], input: string) {
		values.forEach((row, r) => {
			const target = (range.sheet.rows[range.startRow + r] ??= []);
			row.forEach((value, c) => {
				const at = range.startCol + c;
				while (target.length < at) target.push('');
				target[at] = this.entered(value, input);
			});
		});
		for (let i = 0; i < range.sheet.rows.length; i++) range.sheet.rows[i] ??= [];
		const width = Math.max(0, ...values.map((v) => v.length));
		return {
			updatedRange: `${range.sheet.title}!${letters(range.startCol)}${range.startRow + 1}:${letters(range.startCol + Math.max(width, 1) - 1)}${range.startRow + Math.max(values.length, 1)}`,
			updatedRows: values.length,
			updatedColumns: width,
			updatedCells: values.reduce((n, v) => n + v.length, 0),
		};
	}

	/** USER_ENTERED reads text as a person typing it would: numbers and booleans become values. */
	private entered(value: unknown, input: string): Cell {
		if (value === null || value === undefined) return '';
		if (typeof value === 'number' || typeof value === 'boolean') return value;
		const text = String(value);
		if (input !== 'USER_ENTERED') return text;
		if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
		if (/^(true|false)$/i.test(text)) return text.toUpperCase() === 'TRUE';
		return text;
	}

	private batchUpdate(
		id: string,
		body: { data?: Array<{ range: string; values: unknown[][] }>; valueInputOption?: string },
	): TwinReply {
		const spreadsheet = this.spreadsheets.get(id);
		if (!spreadsheet) return this.error(404, 'NOT_FOUND', 'Requested entity was not found.');
		if (!body.valueInputOption)
			return this.error(400, 'INVALID_ARGUMENT', "'valueInputOption' is required but not specified");
		const ranges = (body.data ?? []).map((d) => ({ d, range: this.parse(spreadsheet, d.range) }));
		const bad = ranges.find((r) => !r.range);
		if (bad) return this.error(400, 'INVALID_ARGUMENT', `Unable to parse range: ${bad.d.range}`);
		const responses = ranges.map(({ d, range }) => ({
			spreadsheetId: id,
			...this.write(range!, d.values, body.valueInputOption!),
		}));
		return {
			status: 200,
			body: {
				spreadsheetId: id,
				totalUpdatedRows: responses.reduce((n, r) => n + r.updatedRows, 0),
				totalUpdatedColumns: Math.max(0, ...responses.map((r) => r.updatedColumns)),
				totalUpdatedCells: responses.reduce((n, r) => n + r.updatedCells, 0),
				totalUpdatedSheets: 1,
				responses,
			},
		};
	}
}
