/** Polls `check` until it holds; fails naming `what` after `timeoutMs`. For conditions, never fixed sleeps. */
export async function waitFor(
	what: string,
	check: () => boolean | Promise<boolean>,
	timeoutMs = 60_000,
	everyMs = 200,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, everyMs));
	}
}
