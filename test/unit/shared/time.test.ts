/** Times as Unpod writes them (with or without zone, microseconds, a space for the T) and as n8n gives them. */
import { isoTime, platformTime, userTime } from '../../../nodes/shared/time';

describe('platformTime', () => {
	const at = Date.UTC(2026, 1, 16, 14, 55, 49, 123);
	test.each([
		['2026-02-16T14:55:49.123456', at],
		['2026-02-16 14:55:49.123456', at],
		['2026-02-16T14:55:49.123456Z', at],
		['2026-02-16T14:55:49.123Z', at],
		['2026-02-16T14:55:49', at - 123],
		['2026-02-16 14:55:49', at - 123],
		['2026-02-16T14:55:49Z', at - 123],
		['2026-02-16T14:55:49.1', at - 23],
		['2026-02-16T16:55:49.123+02:00', at],
		['2026-02-16T14:55', at - 49123],
	])('%s', (text, expected) => {
		expect(platformTime(text)).toBe(expected);
	});
	test('anything else is not a timestamp', () => {
		for (const v of ['', 'yesterday', '2026-02-16', 42, null, undefined]) expect(platformTime(v)).toBeUndefined();
	});
	test('isoTime writes UTC ISO and leaves other values alone', () => {
		expect(isoTime('2026-02-16 14:55:49.123456')).toBe('2026-02-16T14:55:49.123Z');
		expect(isoTime(null)).toBeNull();
		expect(isoTime('soon')).toBe('soon');
	});
	test('userTime reads n8n dates, zone-less as UTC', () => {
		expect(userTime('2026-02-16T14:55:49')).toBe(at - 123);
		expect(userTime('2026-02-16T15:55:49.123+01:00')).toBe(at);
		expect(userTime('2026-02-16')).toBe(Date.UTC(2026, 1, 16));
		expect(userTime({ toMillis: () => 5 })).toBe(5);
		expect(userTime('')).toBeUndefined();
	});
});
