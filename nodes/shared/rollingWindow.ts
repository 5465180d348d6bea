/**
 * "At most N calls in any period": the one rolling window every limit of calls is read with (a
 * law's 3 calls in 24 hours, France's 4 in 30 days, Max Calls per 24 Hours, the space's Max Calls
 * per Day). A period is half-open: a call exactly one period after another is in a new one.
 * Pure: instants in, instants out.
 */

/** Call instants (epoch ms), kept sorted: inserting and counting a period are a binary search each. */
export class RollingWindow {
	readonly times: number[];

	constructor(
		times: number[],
		/** The period's length, ms. */
		readonly period: number,
	) {
		this.times = [...times].sort((a, b) => a - b);
	}

	/** The index of the first time at or after `t`. */
	private from(t: number): number {
		let lo = 0;
		let hi = this.times.length;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if (this.times[mid] < t) lo = mid + 1;
			else hi = mid;
		}
		return lo;
	}

	/** How many times fall in [a, b). */
	count(a: number, b: number): number {
		return this.from(b) - this.from(a);
	}

	/** The times in [a, b). */
	between(a: number, b: number): number[] {
		return this.times.slice(this.from(a), this.from(b));
	}

	add(t: number): void {
		this.times.splice(this.from(t), 0, t);
	}

	remove(t: number): void {
		const i = this.from(t);
		if (this.times[i] === t) this.times.splice(i, 1);
	}

	/**
	 * The fullest period that would hold a call at `t`, if a call there would make it more than
	 * `max`: the calls already in it. Fewer than `max` calls within a period either side say none
	 * at once; else the periods that start at a call within the period before `t`, or at `t`, are
	 * the ones that can hold most.
	 */
	full(t: number, max: number): number[] | undefined {
		const { period } = this;
		if (this.count(t - period + 1, t + period) < max) return undefined;
		if (this.count(t, t + period) >= max) return this.between(t, t + period);
		for (let i = this.from(t - period + 1); i < this.times.length && this.times[i] <= t; i++)
			if (this.count(this.times[i], this.times[i] + period) >= max)
				return this.between(this.times[i], this.times[i] + period);
		return undefined;
	}

	/** Whether a call at `t` keeps every period that holds it at `max` calls or fewer. */
	fits(t: number, max: number): boolean {
		return !this.full(t, max);
	}

	/** The first instant at or after `t` where a call fits: `t`, or when a call leaves a period. */
	firstFit(t: number, max: number): number {
		if (this.fits(t, max)) return t;
		for (let i = this.from(t - this.period + 1); i < this.times.length; i++) {
			const leaves = this.times[i] + this.period;
			if (leaves > t && this.fits(leaves, max)) return leaves;
		}
		return Math.max(t, (this.times[this.times.length - 1] ?? t) + this.period);
	}
}
