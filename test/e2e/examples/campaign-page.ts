/**
 * What the Data Table campaign's tests share (campaign.ts, daily-report.ts): the tables the
 * campaign ran, its cost per minute, its page open in Chromium as a phone shows it, the figures
 * the page should show, and Unpod's analytics as the page names them.
 */
import axios from 'axios';
import type { Browser, Response } from 'playwright-core';
import type { N8n } from '../../../dev/harness/n8n';
import { startBrowser } from '../../../dev/harness/browser';
import { DATABASE_BUSY_RETRY_MS, isDatabaseBusy } from '../../../dev/harness/n8n-process';
import { N8N_VERSION } from '../../../dev/harness/paths';
import { SEED } from '../../../dev/server/seed';
import type { Harness } from '../../helpers/setup';
import { waitFor } from '../../helpers/wait-for';
import { PAGE_USER } from './suite';

type LocalServer = Harness<N8n>['server'];

/** What a minute of a call costs, in the campaign's Your costs. */
export const COST_PER_MINUTE = 0.09;

/** The Data Tables the campaign test ran (its rows, its figures), for the daily report's test after it. */
export const campaignRun: { table?: string; figuresTable?: string } = {};

/** Whether the Data Table node sorts rows (Order By): n8n 1.x's ignores it. */
export const DATA_TABLE_ORDERS = Number(N8N_VERSION.split('.')[0]) >= 2;

/**
 * The page's figures are the table's: every stage counted; the rows still new counted from the
 * rows' ids where n8n sorts rows, and shown as not known ("?") on n8n 1.x (docs/campaigns.md).
 */
export function expectPageFigures(shown: Record<string, number>, expected: Record<string, number>) {
	const { new: fresh, ...others } = shown;
	const { new: expectedNew, ...expectedOthers } = expected;
	expect(others).toEqual(expectedOthers);
	if (DATA_TABLE_ORDERS) expect(fresh).toBe(expectedNew);
	else expect(fresh).toBeNaN();
}

let browser: Browser | undefined;

/** Closes the browser the campaign page was opened in, if it was. */
export async function closeCampaignBrowser(): Promise<void> {
	await browser?.close();
	browser = undefined;
}

/** Unpod's analytics of the seed space as the local server answers them now, named as the page names them. */
export async function spaceAnalytics(server: LocalServer): Promise<Record<string, number>> {
	const answer = await axios.get(`${server.url}/api/v2/platform/organisation/analytics/`, {
		params: { space_token: SEED.spaceToken },
		headers: { Authorization: `Token ${SEED.token}`, 'Org-Handle': SEED.orgHandle, 'Product-Id': SEED.productId },
	});
	const { call_analytics: calls, call_status: status } = answer.data.data;
	return {
		total_calls: calls.total_calls,
		interested: calls.interested,
		call_back: calls.call_back,
		not_interested: calls.not_interested,
		not_connected: calls.not_connected,
		failed_calls: calls.failed,
		tasks_pending: status.pending,
		tasks_in_progress: status.in_progress,
		success_rate: status.success_rate,
	};
}

/** Requests to Unpod other than the safety net's polls (a task list), since `from`. */
export const pageRequests = (server: LocalServer, from: number) =>
	server.requests
		.slice(from)
		.filter((r) => !r.path.endsWith('/tasks/'))
		.map((r) => `${r.method} ${r.path}`);

/**
 * The campaign page open in Chromium as a phone shows it, logged in; `read()` reads the figures
 * from the page's DOM (as rendered, not the HTML text).
 */
export async function openCampaignPage(url: string) {
	browser ??= await startBrowser();
	const context = await browser.newContext({ httpCredentials: PAGE_USER, viewport: { width: 390, height: 844 } });
	const page = await context.newPage();
	// The page's loads, counted from the first: a reload the page asks for is seen however soon it comes.
	let loads = 0;
	page.on('request', (r) => {
		if (r.isNavigationRequest() && r.frame() === page.mainFrame()) loads++;
	});
	let response: Response | null;
	// The loads this function asks for; any further one is the page's own.
	let asked = 1;
	try {
		// A browser's reload, as a user would give it, while n8n 2.41 answers that its database is busy.
		response = await page.goto(url);
		let busySince: number | undefined;
		while (
			response?.status() === 503 &&
			isDatabaseBusy(503, await response.text().catch(() => '')) &&
			Date.now() - (busySince ??= Date.now()) < DATABASE_BUSY_RETRY_MS
		) {
			await new Promise((r) => setTimeout(r, 250));
			asked++;
			response = await page.reload();
		}
		// What n8n answered, when it is not the page: the reads below would otherwise wait for its parts.
		if (!(await page.$('meta[http-equiv="refresh"]'))) {
			const answer = `${response?.status()} ${(await page.innerText('body').catch(() => '')).slice(0, 500)}`;
			throw new Error(`${url} answered ${answer}, not the campaign page`);
		}
	} catch (error) {
		await context.close();
		throw error;
	}
	const read = async () => {
		const pairs = (attribute: string) =>
			page.$$eval(
				`[data-${attribute}]`,
				(elements: any[], name: string) =>
					elements.map((e) => [e.getAttribute(`data-${name}`), Number((e.querySelector('b') ?? e).textContent)]),
				attribute,
			);
		return {
			figures: Object.fromEntries(await pairs('figure')),
			analytics: Object.fromEntries(await pairs('analytics')),
			bars: await page.$$eval('rect[data-day]', (rects: any[]) =>
				rects.map((r) => ({ day: r.dataset.day, stage: r.dataset.stage, count: Number(r.dataset.count) })),
			),
			callbacks: await page.$$eval('tr[data-row]', (rows: any[]) =>
				rows.map((r) => [...r.cells].map((c: any) => c.textContent)),
			),
			text: await page.innerText('body'),
			refresh: await page.getAttribute('meta[http-equiv="refresh"]', 'content'),
			scrollWidth: await page.evaluate('document.documentElement.scrollWidth'),
			// Consent and the opening: each line's figure.
			consent: Object.fromEntries(
				await page.$$eval('tr[data-consent]', (lines: any[]) =>
					lines.map((line) => [line.dataset.consent, line.cells[1].textContent]),
				),
			) as Record<string, string>,
			// The spend table: each line's three periods (last 24 hours, 7 days, the campaign).
			spend: Object.fromEntries(
				await page.$$eval('tr[data-spend]', (lines: any[]) =>
					lines.map((line) => [
						line.dataset.spend,
						[...line.querySelectorAll('td[data-when]')].map((c: any) => c.textContent),
					]),
				),
			) as Record<string, string[]>,
		};
	};
	/** Resolves when the browser has asked for the page again on its own (its meta refresh). */
	const reloaded = (timeoutMs: number) => waitFor('the page to reload itself', () => loads > asked, timeoutMs, 250);
	return {
		status: response?.status(),
		headers: response?.headers() ?? {},
		read,
		reloaded,
		close: () => context.close(),
	};
}

/**
 * Whether a scheduled call (Unpod's UTC `scheduled_timestamp`) falls Monday to Friday, 09:00 to
 * 19:00 in New York: the callee's zone, where a +1 212 number rings.
 */
const newYork = new Intl.DateTimeFormat('en-US', {
	timeZone: 'America/New_York',
	weekday: 'short',
	hour: 'numeric',
	minute: 'numeric',
	hourCycle: 'h23',
});
export const inWindow = (timestamp: string) => {
	const parts = Object.fromEntries(newYork.formatToParts(new Date(`${timestamp}Z`)).map((p) => [p.type, p.value]));
	const minutes = Number(parts.hour) * 60 + Number(parts.minute);
	return !['Sat', 'Sun'].includes(parts.weekday) && minutes >= 9 * 60 && minutes < 19 * 60;
};
