/** `npm run server -- --port 4010 [--rate-limit 60] [--auto-finish 3000-8000] [--fail-rate 0.2] [--seed 1] [--time-scale 3600] [--unpod-follow-ups] [--source | --docs | --first-spec] [--newer-lifecycle]` */
import { SEED } from './seed';
import { ANALYSED_AGENT } from './postCall';
import { SOURCE_BACKEND } from './routes/context';
import { startServer } from './server';

function arg(name: string): string | undefined {
	const i = process.argv.indexOf(`--${name}`);
	return i > 0 ? process.argv[i + 1] : undefined;
}

async function main() {
	const autoFinish = arg('auto-finish');
	const [minMs, maxMs] = (autoFinish ?? '').split('-').map(Number);
	const server = await startServer({
		port: Number(arg('port') ?? 4010),
		rateLimit: Number(arg('rate-limit') ?? 0),
		randomSeed: arg('seed') ? Number(arg('seed')) : undefined,
		// --time-scale 3600: a call scheduled an hour ahead starts a second later (a campaign in minutes).
		timeScale: arg('time-scale') ? Number(arg('time-scale')) : undefined,
		// --unpod-follow-ups: the seeded agent as Studio sets it up: Enable Followup, Enable Callback, an analysis plan.
		agentSettings: process.argv.includes('--unpod-follow-ups') ? { [SEED.agentHandle]: ANALYSED_AGENT } : undefined,
		autoFinish: autoFinish ? { minMs, maxMs: maxMs || minMs, failRate: Number(arg('fail-rate') ?? 0.2) } : undefined,
		// By default Unpod's OpenAPI 2.0.0. --source: its February 2026 source; --docs: its May 2026
		// docs' request shapes; --first-spec: the first specification's task path and answers;
		// --newer-lifecycle: failed dispatches end the task, only completions pushed.
		behaviour: {
			...(process.argv.includes('--source') ? SOURCE_BACKEND : {}),
			...(process.argv.includes('--first-spec') ? { createPaths: ['tasks'], deleteAnswer: 200 } : {}),
			...(process.argv.includes('--docs') ? { shapes: 'docs' } : {}),
			...(process.argv.includes('--newer-lifecycle') ? { lifecycle: 'newer' } : {}),
		},
	});
	console.log(`Local Unpod server on ${server.url} (random seed ${server.randomSeed})`);
	console.log(
		'Credential: Base URL %s, API Token %s, Organization Handle %s, Product ID %s',
		server.url,
		SEED.token,
		SEED.orgHandle,
		SEED.productId,
	);
	console.log('Space token %s, agent handle %s, bridge slug %s', SEED.spaceToken, SEED.agentHandle, SEED.bridgeSlug);
	const stop = () => void server.stop().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

void main();
