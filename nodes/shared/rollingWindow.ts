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

	/** Up to `n` of the times in [a, b), the earliest. */
	first(a: number, b: number, n: number): number[] {
		const start = this.from(a);
		return this.times.slice(start, Math.min(this.from(b), start + n));
	}

	add(t: number): void {
		this.times.splice(this.from(t), 0, t);
	}

	remove(t: number): void {
		const i = this.from(t);
		if (this.times[i] === t) this.times.splice(i, 1);
	}

	/**
	 * The start of a period holding `t` that a call at `t` would take past `max` calls, if there
	 * is one. Fewer than `max` calls within a period either side say none at once; else the periods
	 * that start at a call within the period before `t`, or at `t`, are the ones that can hold most.
	 * Counts only: no call is copied (100,000 rows held against one full day ask it each).
	 */
	private fullFrom(t: number, max: number): number | undefined {
		const { period } = this;
		if (this.count(t - period + 1, t + period) < max) return undefined;
		if (this.count(t, t + period) >= max) return t;
		for (let i = this.from(t - period + 1); i < this.times.length && this.times[i] <= t; i++)
			if (this.count(this.times[i], this.times[i] + period) >= max) return this.times[i];
		return undefined;
	}

	/** The full period a call at `t` would take past `max`, if any: `[from, from + period)`. */
	full(t: number, max: number): { from: number; to: number } | undefined {
		const from = this.fullFrom(t, max);
		return from === undefined ? undefined : { from, to: from + this.period };
	}

	/** Whether a call at `t` keeps every period that holds it at `max` calls or fewer. */
	fits(t: number, max: number): boolean {
		return this.fullFrom(t, max) === undefined;
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
