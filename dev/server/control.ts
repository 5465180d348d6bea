/**
 * The control API under `/__sim/`: what tests and the demo use to drive the local server
 * (calls starting, failing an attempt, ending; faults; rate limits; backend shape).
 */
import type { ServerResponse } from 'http';
import type { AutoFinish, CallDriver } from './callDriver';
import { invalidFault } from './faults';
import type { FaultRule, Faults, RandomFaults, RateLimiter } from './faults';
import { parseJson, send } from './http';
import type { RecordedRequest } from './http';
import { SPEC } from './routes/context';
import type { Behaviour } from './routes/context';
import { SEED } from './seed';
import type { Store } from './store';
import type { AgentWebhooks } from './webhooks';

/** What the control API drives: the server's state, its calls, faults and rate limits. */
export interface Controlled {
	requests: RecordedRequest[];
	sink: unknown[];
	sinkAt: number[];
	store: Store;
	calls: CallDriver;
	rateLimiter: RateLimiter;
	faults: Faults;
	behaviour: Behaviour;
	webhooks: AgentWebhooks;
	resetTraffic(): void;
}

export function control(server: Controlled, method: string, path: string, raw: string, res: ServerResponse): void {
	const body = (parseJson(raw) ?? {}) as Record<string, any>;
	const op = `${method} ${path.slice('/__sim/'.length).replace(/\/$/, '')}`;
	const { store } = server;
	switch (op) {
		case 'GET requests':
			return send(res, 200, server.requests);
		case 'POST sink':
			server.sink.push(parseJson(raw));
			server.sinkAt.push(Date.now());
			return send(res, 200, { received: server.sink.length });
		case 'GET sink':
			return send(res, 200, server.sink);
		case 'GET tasks': {
			const byStatus: Record<string, number> = {};
			for (const t of store.tasks) byStatus[t.status] = (byStatus[t.status] ?? 0) + 1;
			return send(res, 200, {
				total: store.tasks.length,
				...byStatus,
				tasks: store.tasks.map((t) => ({ task_id: t.task_id, status: t.status, name: t.input.name })),
			});
		}
		case 'POST start':
			return send(
				res,
				200,
				server.calls.startCalls(body).map((t) => t.task_id),
			);
		case 'POST fail-attempt':
			return send(
				res,
				200,
				server.calls.failAttempts(body).map((t) => t.task_id),
			);
		case 'POST finish':
			return send(
				res,
				200,
				server.calls.finishCalls(body).map((t) => t.task_id),
			);
		case 'POST auto-finish':
			server.calls.autoFinish = body.minMs === undefined ? undefined : (body as AutoFinish);
			return send(res, 200, { autoFinish: server.calls.autoFinish ?? null });
		case 'POST call-scripts':
			// `{scripts: [{number, end, afterMs?, answer?, outcome?}]}`: how calls to these numbers go (see CallScript).
			server.calls.callScripts = Array.isArray(body.scripts) ? body.scripts : [];
			return send(res, 200, { scripts: server.calls.callScripts });
		case 'POST inbound-call': {
			// `{from, status?, seconds?, agent?}`: someone called the seeded agent's number.
			const log = server.calls.inboundCall(body);
			return send(res, 200, { id: log.id });
		}
		case 'POST rate-limit':
			server.rateLimiter.configure(
				Number(body.perMinute ?? 0),
				body.burst === undefined ? undefined : Number(body.burst),
			);
			return send(res, 200, { perMinute: server.rateLimiter.perMinute });
		case 'POST faults': {
			const problem = invalidFault(body);
			if (problem) return send(res, 400, { message: problem });
			const rule = body as FaultRule & { random?: RandomFaults };
			if (rule.random) server.faults.setRandom(rule.random);
			else server.faults.add(rule);
			return send(res, 200, { ok: true });
		}
		case 'POST behaviour':
			server.behaviour = { ...SPEC, ...body };
			return send(res, 200, server.behaviour);
		case 'POST webhook':
			// Studio's agent form, without the JWT: `{agent?, enable_webhook?, webhook_url, headers?}`.
			if (typeof body.webhook_url !== 'string') return send(res, 400, { message: 'webhook_url is required' });
			server.webhooks.configure(String(body.agent ?? SEED.agentHandle), {
				enable_webhook: body.enable_webhook !== false,
				webhook_url: body.webhook_url,
				headers: body.headers ?? {},
			});
			return send(res, 200, server.webhooks.formView(String(body.agent ?? SEED.agentHandle)));
		case 'POST agent-settings': {
			// `{agent?, follow_up_enabled?, callback_enabled?, post_call_playbook?}` (Unpod's model config names);
			// `{agent?, clear: true}`: back to plain outcomes.
			const agent = String(body.agent ?? SEED.agentHandle);
			if (body.clear) store.agentSettings.delete(agent);
			else
				store.agentSettings.set(agent, {
					follow_up_enabled: body.follow_up_enabled !== false,
					callback_enabled: body.callback_enabled === true,
					post_call_playbook: Array.isArray(body.post_call_playbook) ? body.post_call_playbook : [],
				});
			return send(res, 200, store.agentSettings.get(agent) ?? null);
		}
		case 'GET deliveries':
			return send(
				res,
				200,
				server.webhooks.deliveries.map(({ body: _body, headers: _headers, ...record }) => record),
			);
		case 'POST delivery-faults':
			server.webhooks.faults = { dropRate: Number(body.dropRate ?? 0), repeatRate: Number(body.repeatRate ?? 0) };
			return send(res, 200, server.webhooks.faults);
		case 'POST redeliver': {
			const record = server.webhooks.redeliver(String(body.task_id ?? ''));
			return record ? send(res, 200, { id: record.id }) : send(res, 404, { message: 'No such task or no webhook set' });
		}
		case 'POST reset':
			server.resetTraffic();
			return send(res, 200, { ok: true });
	}
	send(res, 404, { message: `Unknown control endpoint ${method} ${path}` });
}
