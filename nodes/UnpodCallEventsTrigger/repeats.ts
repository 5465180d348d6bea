/**
 * Unpod can send the same ending more than once (several code paths send delivery A) and the
 * same live event again. The trigger remembers what it let through, for a bounded time and
 * count, in the workflow's static data: n8n stores it in its database, which every process of
 * a queue-mode setup shares.
 */
import { DAY_MS } from '../shared/time';

/** How long and how many deliveries are remembered. */
export interface RepeatWindow {
	ms: number;
	max: number;
}

/** 24 hours and 1,000 deliveries: about 57 kB stored, saved with each delivery let through. */
export const REPEAT_WINDOW: RepeatWindow = { ms: DAY_MS, max: 1000 };

/** Stored form: delivery key -> when it was let through (epoch s), oldest first. */
export interface DeliveryLog {
	v: 1;
	seen: Record<string, number>;
}

function readLog(stored: unknown): DeliveryLog {
	const log = stored as Partial<DeliveryLog> | undefined;
	if (log?.v === 1 && log.seen && typeof log.seen === 'object') return { v: 1, seen: { ...log.seen } };
	return { v: 1, seen: {} };
}

/** The entries still inside the window, the newest `max - 1` of them (room for one more). */
function prune(seen: Record<string, number>, nowS: number, window: RepeatWindow): Record<string, number> {
	const fresh = Object.entries(seen).filter(([, at]) => typeof at === 'number' && nowS - at < window.ms / 1000);
	return Object.fromEntries(fresh.slice(Math.max(0, fresh.length - (window.max - 1))));
}

/**
 * Whether `key` was let through within the window; if not, the log with it added. A repeat
 * leaves the log as it was (its first time is what the window counts from).
 */
export function checkRepeat(
	stored: unknown,
	key: string,
	nowMs: number,
	window: RepeatWindow = REPEAT_WINDOW,
): { repeat: true } | { repeat: false; log: DeliveryLog } {
	const nowS = Math.floor(nowMs / 1000);
	const seen = prune(readLog(stored).seen, nowS, window);
	if (key in seen) return { repeat: true };
	seen[key] = nowS;
	return { repeat: false, log: { v: 1, seen } };
}
