/**
 * Call recordings, as the storage behind `output.recording_url` serves them: a short, valid
 * MP3 (silent MPEG-1 Layer III frames), the same bytes for every call.
 */

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
