import { recordingType } from '../../../nodes/UnpodTask/resources/task/downloadRecording.operation';

describe('recordingType', () => {
	test("the answer's type wins, with its usual extension", () => {
		expect(recordingType('audio/mpeg', 'https://unpod.ai/r/T1')).toEqual({ mimeType: 'audio/mpeg', extension: 'mp3' });
		expect(recordingType('audio/wav; charset=binary', 'https://s3.example/T1.mp3')).toEqual({
			mimeType: 'audio/wav',
			extension: 'wav',
		});
	});
	test("an unknown or generic answer type falls back to the URL's extension, then to MP3", () => {
		expect(recordingType('application/octet-stream', 'https://s3.example/T1.ogg?sig=1')).toEqual({
			mimeType: 'audio/ogg',
			extension: 'ogg',
		});
		expect(recordingType(undefined, 'https://s3.example/recording')).toEqual({
			mimeType: 'audio/mpeg',
			extension: 'mp3',
		});
		expect(recordingType('audio/x-unknown', 'https://s3.example/T1.opus')).toEqual({
			mimeType: 'audio/x-unknown',
			extension: 'opus',
		});
	});
});
