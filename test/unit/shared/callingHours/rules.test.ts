/**
 * Each rule of the law, table-driven: the window it leaves in the callee's zone, and for each,
 * instants it forbids and allows on a weekday, a Saturday, a Sunday and a holiday (local times;
 * every instant also inside Unpod's engine's 09:00-20:00 New York window where an allowed one is
 * claimed). Pure: the rules table, the holidays and the windows, no clock but the instants given.
 */
import { CallingHours } from '../../../../nodes/shared/callingHours/callee';
import type { HoursSettings } from '../../../../nodes/shared/callingHours/callee';
import { BASE_RULE, RULES, rulesFor } from '../../../../nodes/shared/callingHours/rules';
import { weekText } from '../../../../nodes/shared/callingHours/week';
import { PURPOSES } from '../../../../nodes/shared/callPurposes';

const LAW: HoursSettings = { law: true, purpose: 'sales' };

/** The days the cases name: none a holiday anywhere in the table but `Xmas`. */
const DAYS: Record<string, [number, number, number]> = {
	Mon: [2027, 3, 8],
	Tue: [2027, 3, 9],
	Sat: [2027, 2, 20],
	Sun: [2027, 2, 21],
	Xmas: [2026, 12, 25],
};

type Case = [string, boolean];

/** Where, a number there, the window it leaves, and cases: `Mon 08:30` (a day of DAYS or a date) and whether a call may start. */
const TABLE: Array<[string, string, string, Case[]]> = [
	[
		'Texas',
		'+15125550123',
		'Mon-Sat 09:00-21:00; Sun 12:00-21:00',
		[
			['Mon 08:30', false],
			['Mon 10:00', true],
			['Sat 08:45', false],
			['Sat 10:00', true],
			['Sun 10:00', false],
			['Sun 13:00', true],
			['Xmas 12:00', true],
		],
	],
	[
		'Louisiana',
		'+15045550123',
		'Mon-Sat 08:00-20:00',
		[
			['Mon 20:15', false],
			['Mon 10:00', true],
			['Sat 10:00', true],
			['Sun 12:00', false],
			['Xmas 12:00', false],
			['2027-02-09 12:00', false],
			['2027-11-01 12:00', false],
			// Observed: Independence Day (a Sunday), Christmas Day and New Year's Day 2028 (Saturdays).
			['2027-07-05 10:00', false],
			['2027-12-24 10:00', false],
			['2027-12-31 10:00', false],
			['2027-12-17 10:00', true],
		],
	],
	[
		'Alabama',
		'+12055550123',
		'Mon-Sat 08:00-20:00',
		[
			['Mon 20:15', false],
			['Mon 10:00', true],
			['Sat 10:00', true],
			['Sun 12:00', false],
			['Xmas 12:00', false],
			['2027-04-26 12:00', false],
			// Observed (Ala. Code 1-3-8(a)): 2027's Sunday and Saturday holidays, Veterans Day 2028 (a Saturday).
			['2027-07-05 10:00', false],
			['2027-12-24 10:00', false],
			['2027-12-31 10:00', false],
			['2028-11-10 10:00', false],
			['2027-12-17 10:00', true],
		],
	],
	[
		'Utah',
		'+18015550123',
		'Mon-Sat 08:00-21:00',
		[
			['Mon 07:45', false],
			['Mon 10:00', true],
			['Sat 10:00', true],
			['Sun 12:00', false],
			['Xmas 12:00', false],
			['2027-01-01 12:00', false],
			['2027-07-23 12:00', false],
		],
	],
	[
		'Mississippi',
		'+16015550123',
		// Its own hours are on Central Standard Time, a window of their own (below).
		'08:00-21:00',
		[
			['Mon 07:45', false],
			['Mon 20:15', false],
			['Mon 10:00', true],
			['Sat 10:00', true],
			['Sun 12:00', false],
			['Xmas 12:00', true],
			// July, on daylight time: 08:30 CDT is 07:30 CST. The evening is closed by the federal 21:00
			// and Unpod's engine (New York's 20:00, 19:00 CDT) before 20:00 CST (21:00 CDT) comes.
			['2026-07-06 08:30', false],
			['2026-07-06 09:00', true],
			['2026-07-06 18:30', true],
		],
	],
	[
		'Rhode Island',
		'+14015550123',
		'Mon-Fri 09:00-18:00; Sat 10:00-17:00',
		[
			['Mon 18:30', false],
			['Mon 10:00', true],
			['Sat 09:30', false],
			['Sat 12:00', true],
			['Sun 12:00', false],
			['Xmas 12:00', false],
			['2027-08-09 12:00', false],
		],
	],
	[
		'Maryland',
		'+14105550123',
		'08:00-20:00',
		[
			['Mon 20:15', false],
			['Mon 10:00', true],
			['Sat 12:00', true],
			['Sun 12:00', true],
			['Xmas 12:00', true],
		],
	],
	[
		'Washington',
		'+12065550123',
		'08:00-20:00',
		[
			['Mon 20:15', false],
			['Mon 10:00', true],
			['Sat 12:00', true],
			['Sun 12:00', true],
			['Xmas 12:00', true],
		],
	],
	[
		'Massachusetts',
		'+16175550123',
		'08:00-20:00',
		[
			['Mon 20:15', false],
			['Mon 10:00', true],
			['Sat 12:00', true],
			['Sun 12:00', true],
			['Xmas 12:00', true],
		],
	],
	[
		'Connecticut',
		'+12035550123',
		'09:00-20:00',
		[
			['Mon 08:45', false],
			['Mon 10:00', true],
			['Sat 12:00', true],
			['Sun 12:00', true],
			['Xmas 12:00', true],
		],
	],
	// The TCPA's 21:00 cuts Canada's weekday 21:30.
	[
		'Canada',
		'+14165550123',
		'Mon-Fri 09:00-21:00; Sat-Sun 10:00-18:00',
		[
			['Mon 08:30', false],
			['Mon 10:00', true],
			['Sat 09:30', false],
			['Sat 10:30', true],
			['Sun 18:30', false],
			['Sun 12:00', true],
			['Xmas 12:00', true],
		],
	],
	[
		'France',
		'+33145678901',
		'Mon-Fri 10:00-13:00, 14:00-20:00',
		[
			['Mon 09:30', false],
			['Mon 10:30', true],
			['Tue 13:30', false],
			['Tue 14:00', true],
			['Sat 11:00', false],
			['Sun 11:00', false],
			['Xmas 11:00', false],
			['2027-05-06 11:00', false],
		],
	],
	[
		'Australia',
		'+61298765432',
		'Mon-Fri 09:00-20:00; Sat 09:00-17:00',
		[
			['Mon 08:30', false],
			['Mon 10:00', true],
			['Sat 17:30', false],
			['Sat 10:00', true],
			['Sun 12:00', false],
			['Xmas 12:00', false],
			['2027-04-26 12:00', true],
			['2027-03-29 12:00', false],
		],
	],
	[
		'South Africa',
		'+27115551234',
		'Mon-Fri 08:00-20:00; Sat 09:00-13:00',
		[
			['Mon 20:30', false],
			['Mon 10:00', true],
			['Sat 14:00', false],
			['Sat 10:00', true],
			['Sun 12:00', false],
			['Xmas 12:00', false],
			['2027-03-22 12:00', false],
		],
	],
];

const hours = new CallingHours();

/** The instant of `Mon 08:30` or `2027-02-09 12:00` on the wall clock of `zone`. */
function instantOf(when: string, zone: string): number {
	const [day, time] = when.split(' ');
	const [y, m, d] = DAYS[day] ?? day.split('-').map(Number);
	const [h, mi] = time.split(':').map(Number);
	return hours.clock.instant(y, m, d, h, mi, zone);
}

describe.each(TABLE)('%s (%s)', (where, number, window, cases) => {
	const callee = hours.calleeOf(number, undefined, LAW);

	test(`its rule is in the table, with its source, and leaves ${window} local`, () => {
		expect(callee.rules.map((r) => r.where)).toContain(where);
		expect(RULES.find((r) => r.where === where)!.citation.length).toBeGreaterThan(40);
		expect(weekText(callee.windows[0].week)).toBe(window);
	});

	test.each(cases)(`%s local: a call may start: %s`, (when, allowed) => {
		const at = instantOf(when, callee.zones[0]);
		expect(hours.firstLegal(at, callee.windows) === at).toBe(allowed);
	});
});

test("Mississippi's hours are read on Central Standard Time all year, and the item says so", () => {
	const callee = hours.calleeOf('+16015550123', undefined, LAW);
	expect(hours.windowText(callee)).toContain('Mon-Sat 08:00-20:00 in Central Standard Time for Mississippi\'s law');
	// Monday 2026-07-06 13:30 UTC: 08:30 in Jackson (CDT), 07:30 CST; 14:00 UTC is 08:00 CST.
	expect(hours.firstLegal(Date.UTC(2026, 6, 6, 13, 30), callee.windows)).toBe(Date.UTC(2026, 6, 6, 14, 0));
});

describe('the table', () => {
	test('every rule cites its source and says which calls it covers', () => {
		for (const rule of [BASE_RULE, ...RULES]) {
			expect(rule.citation.length).toBeGreaterThan(30);
			expect(rule.covers.length).toBeGreaterThan(0);
			for (const purpose of rule.covers) expect(PURPOSES).toContain(purpose);
		}
	});

	test("a region's letters mean a state only under +1; a state's rule only for its own numbers", () => {
		expect(rulesFor('1', 'FL').map((r) => r.where)).toEqual(['everywhere', 'Florida']);
		expect(rulesFor('1', 'CA').map((r) => r.where)).toEqual(['everywhere']);
		expect(rulesFor('44', 'FL').map((r) => r.where)).toEqual(['everywhere']);
		expect(rulesFor('33', undefined).map((r) => r.where)).toEqual(['everywhere', 'France']);
	});

	test('calls that are not sales leave out the rules that cover sales calls only; 08:00 to 21:00 holds', () => {
		expect(rulesFor('1', 'TX', 'informational').map((r) => r.where)).toEqual(['everywhere']);
		const notSales = hours.calleeOf('+33145678901', undefined, { law: true, purpose: 'informational' });
		expect(weekText(notSales.windows[0].week)).toBe('08:00-21:00');
		expect(notSales.limits).toEqual([]);
		// Texas on a Sunday at 10:00: forbidden for a sales call, not for a reminder.
		const texas = hours.calleeOf('+15125550123', undefined, { law: true, purpose: 'informational' });
		const sunday = instantOf('Sun 10:00', 'America/Chicago');
		expect(hours.firstLegal(sunday, texas.windows)).toBe(sunday);
	});

	test("surveys and polls keep Louisiana's and Australia's rules, and no rule of sales calls only", () => {
		expect(rulesFor('1', 'LA', 'survey').map((r) => r.where)).toEqual(['everywhere', 'Louisiana']);
		expect(rulesFor('61', undefined, 'survey').map((r) => r.where)).toEqual(['everywhere', 'Australia']);
		expect(rulesFor('1', 'TX', 'survey').map((r) => r.where)).toEqual(['everywhere']);
		expect(rulesFor('33', undefined, 'survey').map((r) => r.where)).toEqual(['everywhere']);
		expect(rulesFor('1', 'LA', 'informational').map((r) => r.where)).toEqual(['everywhere']);
		// A poll in Louisiana on a Sunday at noon: forbidden; a reminder: allowed.
		const sunday = instantOf('Sun 12:00', 'America/Chicago');
		const poll = hours.calleeOf('+15045550123', undefined, { law: true, purpose: 'survey' });
		expect(hours.firstLegal(sunday, poll.windows)).toBeGreaterThan(sunday);
		const reminder = hours.calleeOf('+15045550123', undefined, { law: true, purpose: 'informational' });
		expect(hours.firstLegal(sunday, reminder.windows)).toBe(sunday);
	});

	test('limits over days: 3 in 24 hours in Florida, Oklahoma and Maryland; 4 in 30 days in France', () => {
		const limits = (number: string) =>
			hours.calleeOf(number, undefined, LAW).limits.map((l) => `${l.calls} in ${l.days} ${l.where}`);
		expect(limits('+13055550100')).toEqual(['3 in 1 Florida']);
		expect(limits('+14055550100')).toEqual(['3 in 1 Oklahoma']);
		expect(limits('+14105550123')).toEqual(['3 in 1 Maryland']);
		expect(limits('+33145678901')).toEqual(['4 in 30 France']);
		expect(limits('+12125550100')).toEqual([]);
	});

	test('the window of a forbidding rule reads as an item says it', () => {
		const france = hours.calleeOf('+33145678901', undefined, LAW);
		expect(hours.windowText(france)).toBe(
			"Mon-Fri 10:00-13:00, 14:00-20:00 local, no calls on France's public holidays, France's law",
		);
	});
});
