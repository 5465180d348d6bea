/**
 * A small local stand-in for OpenAI's chat-completions API, for AI-agent tests with no network:
 * the first request of a conversation gets a scripted tool call, a request that carries the
 * tool's result gets a final answer. Every request body is kept, to see what reached the model.
 */
import { createServer, Server } from 'http';
import type { AddressInfo } from 'net';

interface ChatMessage {
	role: string;
	content?: unknown;
	tool_call_id?: string;
}

interface ChatRequest {
	model?: string;
	stream?: boolean;
	messages: ChatMessage[];
	tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
}

export interface ScriptedToolCall {
	/** Picks the tool by its name as n8n gives it (from the node's name). */
	tool: (names: string[]) => string | undefined;
	arguments: Record<string, unknown>;
}

export class OpenAiStandIn {
	requests: ChatRequest[] = [];
	private server?: Server;
	port = 0;

	constructor(
		private toolCall: ScriptedToolCall,
		private finalAnswer: (toolResult: string) => string,
	) {}

	/** The base URL to put in an OpenAI credential. */
	get url(): string {
		return `http://127.0.0.1:${this.port}/v1`;
	}

	/** What the tool answered, as the model's second request carried it. */
	toolResults(): string[] {
		return this.requests.flatMap((r) =>
			r.messages
				.filter((m) => m.role === 'tool')
				.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))),
		);
	}

	async start(): Promise<this> {
		this.server = createServer((req, res) => {
			let raw = '';
			req.on('data', (chunk) => (raw += chunk));
			req.on('end', () => {
				if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
					res.writeHead(404, { 'Content-Type': 'application/json' });
					res.end(JSON.stringify({ error: { message: `No route ${req.method} ${req.url}` } }));
					return;
				}
				const body = JSON.parse(raw) as ChatRequest;
				this.requests.push(body);
				const message = this.answer(body);
				if (body.stream) return this.stream(res, body, message);
				res.writeHead(200, { 'Content-Type': 'application/json' });
				res.end(
					JSON.stringify({
						id: `chatcmpl-${this.requests.length}`,
						object: 'chat.completion',
						created: Math.floor(Date.now() / 1000),
						model: body.model ?? 'gpt-4o-mini',
						choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
						usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
					}),
				);
			});
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
		this.port = (this.server.address() as AddressInfo).port;
		return this;
	}

	private answer(body: ChatRequest): { role: 'assistant'; content: string | null; tool_calls?: unknown[] } {
		const results = body.messages.filter((m) => m.role === 'tool');
		if (results.length) {
			const last = results.at(-1)!.content;
			return { role: 'assistant', content: this.finalAnswer(typeof last === 'string' ? last : JSON.stringify(last)) };
		}
		const name = this.toolCall.tool((body.tools ?? []).map((t) => t.function.name));
		if (!name) return { role: 'assistant', content: 'No tool to call.' };
		return {
			role: 'assistant',
			content: null,
			tool_calls: [
				{
					id: 'call_standin_1',
					type: 'function',
					function: { name, arguments: JSON.stringify(this.toolCall.arguments) },
				},
			],
		};
	}

	/** The same answer as server-sent events, for clients that stream. */
	private stream(res: import('http').ServerResponse, body: ChatRequest, message: ReturnType<OpenAiStandIn['answer']>) {
		res.writeHead(200, { 'Content-Type': 'text/event-stream' });
		const chunk = (delta: unknown, finish: string | null) =>
			`data: ${JSON.stringify({
				id: `chatcmpl-${this.requests.length}`,
				object: 'chat.completion.chunk',
				created: Math.floor(Date.now() / 1000),
				model: body.model ?? 'gpt-4o-mini',
				choices: [{ index: 0, delta, finish_reason: finish }],
			})}\n\n`;
		const delta = message.tool_calls
			? { role: 'assistant', tool_calls: (message.tool_calls as object[]).map((c, index) => ({ index, ...c })) }
			: { role: 'assistant', content: message.content };
		res.write(chunk(delta, null));
		res.write(chunk({}, message.tool_calls ? 'tool_calls' : 'stop'));
		res.end('data: [DONE]\n\n');
	}

	async stop(): Promise<void> {
		if (!this.server) return;
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server!.close(() => resolve()));
	}
}
