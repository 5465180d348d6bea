/**
 * A mail server on 127.0.0.1 that keeps what it is sent: enough SMTP for n8n's Send Email node
 * (nodemailer) without TLS or a login. For the daily report's test: the mail that arrives.
 */
import { createServer, type Server, type Socket } from 'net';

export interface ReceivedMail {
	from: string;
	to: string[];
	/** The message as sent: headers, a blank line, the body (MIME parts as they came). */
	data: string;
}

export class SmtpSink {
	mails: ReceivedMail[] = [];
	private server: Server = createServer((socket) => this.session(socket));
	private sockets = new Set<Socket>();

	/** A message with folded headers unfolded and quoted-printable parts decoded (soft breaks joined, =XX as bytes). */
	static decoded(data: string): string {
		const joined = data.replace(/\r\n[ \t]+/g, ' ').replace(/=\r\n/g, '');
		return Buffer.from(
			joined.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
			'latin1',
		).toString('utf8');
	}

	async start(): Promise<this> {
		await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
		return this;
	}

	get port(): number {
		return (this.server.address() as { port: number }).port;
	}

	private session(socket: Socket): void {
		this.sockets.add(socket);
		socket.on('close', () => this.sockets.delete(socket));
		socket.on('error', () => undefined);
		let mail: ReceivedMail = { from: '', to: [], data: '' };
		let inData = false;
		let buffer = '';
		const reply = (line: string) => socket.write(`${line}\r\n`);
		reply('220 localhost test sink');
		socket.on('data', (chunk) => {
			buffer += chunk.toString('utf8');
			for (;;) {
				if (inData) {
					const end = buffer.indexOf('\r\n.\r\n');
					if (end < 0) return;
					// Dot-stuffing undone, as a server must.
					mail.data = buffer.slice(0, end).replace(/\r\n\.\./g, '\r\n.');
					buffer = buffer.slice(end + 5);
					this.mails.push(mail);
					mail = { from: '', to: [], data: '' };
					inData = false;
					reply('250 OK: queued');
					continue;
				}
				const eol = buffer.indexOf('\r\n');
				if (eol < 0) return;
				const line = buffer.slice(0, eol);
				buffer = buffer.slice(eol + 2);
				const verb = line.slice(0, 4).toUpperCase();
				if (verb === 'EHLO') reply('250-localhost\r\n250 8BITMIME');
				else if (verb === 'HELO') reply('250 localhost');
				else if (verb === 'MAIL') ((mail.from = line.slice(10).trim()), reply('250 OK'));
				else if (verb === 'RCPT') (mail.to.push(line.slice(8).trim()), reply('250 OK'));
				else if (verb === 'DATA') ((inData = true), reply('354 End data with <CR><LF>.<CR><LF>'));
				else if (verb === 'QUIT') (reply('221 Bye'), socket.end());
				else reply('250 OK');
			}
		});
	}

	async stop(): Promise<void> {
		for (const socket of this.sockets) socket.destroy();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}
}
