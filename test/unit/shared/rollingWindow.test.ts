/** The one rolling window of every limit of calls: half-open periods, wherever they start. */
import { RollingWindow } from '../../../nodes/shared/rollingWindow';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

test('a period is half-open: a call exactly one period after another is in a new one', () => {
	const line = new RollingWindow([0], DAY);
	expect(line.fits(DAY, 1)).toBe(true);
	expect(line.fits(DAY - 1, 1)).toBe(false);
	expect(line.firstFit(DAY - HOUR, 1)).toBe(DAY);
});

test('no period holds more than the limit, wherever it starts: calls at -20 h and +20 h leave room for one now at 2', () => {
	const line = new RollingWindow([-20 * HOUR, 20 * HOUR], DAY);
	expect(line.full(0, 2)).toBeUndefined();
	// A third within 24 hours of the first makes the period from -20 h hold three.
	line.add(-10 * HOUR);
	expect(line.full(0, 2)).toEqual({ from: -20 * HOUR, to: 4 * HOUR });
	expect(line.between(-20 * HOUR, 4 * HOUR)).toEqual([-20 * HOUR, -10 * HOUR]);
	expect(line.firstFit(0, 2)).toBe(4 * HOUR);
});

test('the calls a full period counted are the ones an item names', () => {
	const line = new RollingWindow([3 * HOUR, HOUR, 2 * HOUR], DAY);
	expect(line.times).toEqual([HOUR, 2 * HOUR, 3 * HOUR]);
	expect(line.full(4 * HOUR, 3)).toEqual({ from: HOUR, to: 25 * HOUR });
	line.remove(2 * HOUR);
	expect(line.full(4 * HOUR, 3)).toBeUndefined();
});
