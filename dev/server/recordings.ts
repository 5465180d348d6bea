/**
 * Call recordings, as the storage behind `output.recording_url` serves them: a short, valid
 * MP3 (silent MPEG-1 Layer III frames), the same bytes for every call.
 */
import type { ServerResponse } from 'http';
import { answerFault } from './faults';
import type { Faults } from './faults';
import type { RecordedRequest } from './http';
import type { Task } from './types';

/** 44.1 kHz, 128 kbit/s, mono, no CRC: each frame is 417 bytes and 1,152 samples (26 ms). */
const FRAME_HEADER = [0xff, 0xfb, 0x90, 0xc4];
const FRAME_BYTES = 417;

/** About `seconds` of silence. A frame whose side information is all zero decodes to silence. */
export function silentMp3(seconds = 1): Buffer {
	const frames = Math.ceil((seconds * 44100) / 1152);
	const mp3 = Buffer.alloc(frames * FRAME_BYTES);
	for (let f = 0; f < frames; f++) mp3.set(FRAME_HEADER, f * FRAME_BYTES);
	return mp3;
}

export const RECORDING = silentMp3(1);

/** Where a call's recording lives, under `base`: the server's own address, or another host's for storage elsewhere. */
export function recordingUrl(base: string, taskId: string): string {
	return `${base.replace(/\/+$/, '')}/recordings/${taskId}.mp3`;
}

/** What the recording host serves: these bytes, its length announced or not (a storage host may not). */
export interface RecordingHost {
	recording: Buffer;
	recordingLength: boolean;
	faults: Faults;
	tasksById: Map<string, Task>;
}

/**
 * A recording, as a storage host serves it: no Unpod headers needed, and every request
 * recorded (`record`), so tests can see which headers reached it. Only ended calls have one.
 */
export async function serveRecording(host: RecordingHost, record: RecordedRequest, res: ServerResponse): Promise<void> {
	const { method, path } = record;
	const fault = host.faults.take(method, path);
	if (fault && (await answerFault(fault, res, record, {}))) return;
	const task = host.tasksById.get(path.slice('/recordings/'.length).replace(/\.mp3$/, ''));
	if (method !== 'GET') record.status = 405;
	else record.status = task?.output?.recording_url ? 200 : 404;
	if (record.status !== 200) {
		res.writeHead(record.status, { 'Content-Type': 'text/plain' });
		res.end(record.status === 404 ? 'Not Found' : 'Error');
		return;
	}
	const length = host.recordingLength ? { 'Content-Length': host.recording.length } : {};
	res.writeHead(200, { 'Content-Type': 'audio/mpeg', ...length });
	if (fault?.kind === 'dropAfter') {
		record.status = 0;
		res.socket?.destroy();
		return;
	}
	res.end(host.recording);
}
