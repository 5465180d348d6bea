/** Task > Download Recording: an ended call's recording as binary data, streamed. */
import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { optionsCollection } from '../../../shared/descriptions';
import { executionBudget } from '../../../shared/retry';
import { downloadFile } from '../../../shared/transport';
import type { FileStream } from '../../../shared/transport';
import type { TaskOption } from './taskOption';

const show = { operation: ['downloadRecording'] };

export const DEFAULT_MAX_SIZE_MB = 100;

export const option: TaskOption = {
	name: 'Download Recording',
	value: 'downloadRecording',
	action: 'Download a call recording',
	description: "Download an ended call's recording as a file (binary data), keeping the item's fields",
	run: { perItem: execute },
};

export const description: INodeProperties[] = [
	{
		displayName: 'Recording URL',
		name: 'recordingUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. {{ $json.recording_url }}',
		displayOptions: { show },
		description: "The call's recording_url",
		hint: 'Unpod Trigger and Task > Get Many (simplified) put recording_url on every ended call; a failed call has none',
	},
	optionsCollection(show, [
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			placeholder: 'e.g. {{ $json.contact_name }}.mp3',
			description: 'The name of the file. Empty: the task ID and the extension of the recording, e.g. T3f9c2d7.mp3.',
		},
		{
			displayName: 'Max Size (MB)',
			name: 'maxSizeMb',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_MAX_SIZE_MB,
			description: 'A larger recording fails its item instead of filling the disk or the database',
		},
		{
			displayName: 'Put Output In Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			description: 'The name of the binary field to put the recording in',
		},
	]),
];

const EXTENSIONS: Record<string, string> = {
	'audio/mpeg': 'mp3',
	'audio/mp3': 'mp3',
	'audio/wav': 'wav',
	'audio/x-wav': 'wav',
	'audio/ogg': 'ogg',
	'audio/webm': 'webm',
	'audio/mp4': 'm4a',
	'audio/x-m4a': 'm4a',
	'audio/aac': 'aac',
	'audio/flac': 'flac',
};
const MIME_TYPES: Record<string, string> = {
	mp3: 'audio/mpeg',
	wav: 'audio/wav',
	ogg: 'audio/ogg',
	webm: 'audio/webm',
	m4a: 'audio/mp4',
	aac: 'audio/aac',
	flac: 'audio/flac',
};

/** The recording's type and file extension: what the answer says, else what the URL's name says, else MP3. */
export function recordingType(contentType: unknown, url: string): { mimeType: string; extension: string } {
	const declared = String(contentType ?? '')
		.split(';')[0]
		.trim()
		.toLowerCase();
	const fromUrl = /\.([a-z0-9]{2,5})$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase();
	if (declared && declared !== 'application/octet-stream' && declared !== 'binary/octet-stream') {
		return { mimeType: declared, extension: EXTENSIONS[declared] ?? fromUrl ?? 'bin' };
	}
	if (fromUrl && MIME_TYPES[fromUrl]) return { mimeType: MIME_TYPES[fromUrl], extension: fromUrl };
	return { mimeType: 'audio/mpeg', extension: 'mp3' };
}

function recordingUrlOf(this: IExecuteFunctions, itemIndex: number): URL {
	const value = this.getNodeParameter('recordingUrl', itemIndex, '') as unknown;
	const text = typeof value === 'string' ? value.trim() : '';
	if (!text) {
		throw new NodeOperationError(this.getNode(), `Item ${itemIndex + 1} has no recording URL`, {
			itemIndex,
			description:
				'A call that failed or was not answered has no recording (its recording_url is empty). Leave such calls out with an If node before this one, or turn on Continue On Fail (Settings > On Error).',
		});
	}
	let url: URL | undefined;
	try {
		url = new URL(text);
	} catch {
		url = undefined;
	}
	if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
		throw new NodeOperationError(this.getNode(), `Item ${itemIndex + 1}: "${text}" is not a web address`, {
			itemIndex,
			description: 'Recording URL must be an http(s) address, such as the recording_url of an ended call.',
		});
	}
	return url;
}

/** Counts what flows through the stream and stops it past `maxBytes`, whoever reads it. */
function limitSize(body: FileStream, maxBytes: number, error: () => Error): FileStream {
	let received = 0;
	// Paused first: a 'data' listener on a paused stream sees every chunk its reader takes,
	// and does not start the flow before the reader is there. A reader that listens for
	// 'data' itself (rather than piping or iterating) would wait on the pause: its listener
	// resumes the stream.
	body.pause();
	body.on('data', (chunk) => {
		received += chunk.length;
		if (received > maxBytes) body.destroy(error());
	});
	body.on('newListener', (event) => {
		if (event === 'data') body.resume();
	});
	return body;
}

export async function execute(this: IExecuteFunctions, itemIndex: number, item: INodeExecutionData) {
	const url = recordingUrlOf.call(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const field = String(options.binaryPropertyName || 'data');
	const maxMb = Number(options.maxSizeMb) || DEFAULT_MAX_SIZE_MB;
	const maxBytes = maxMb * 1024 * 1024;
	const tooLarge = () =>
		new NodeOperationError(this.getNode(), `Item ${itemIndex + 1}: the recording is larger than ${maxMb} MB`, {
			itemIndex,
			description: 'Raise Max Size (MB) under Options to download it.',
		});
	const budget = executionBudget(this);
	const { body, headers } = await downloadFile.call(this, url.href, itemIndex, budget);
	if (Number(headers['content-length']) > maxBytes) {
		body.destroy();
		throw tooLarge();
	}
	const { mimeType, extension } = recordingType(headers['content-type'], url.href);
	const taskId = typeof item.json.task_id === 'string' && item.json.task_id ? item.json.task_id : 'recording';
	const fileName = String(options.fileName || `${taskId}.${extension}`);
	// Streamed into n8n's binary data store (disk, database or S3), not held in memory twice.
	const stream = limitSize(body, maxBytes, tooLarge) as unknown as Parameters<
		IExecuteFunctions['helpers']['prepareBinaryData']
	>[0];
	const data: IBinaryData = await this.helpers.prepareBinaryData(stream, fileName, mimeType);
	return [{ json: item.json, binary: { ...item.binary, [field]: data }, pairedItem: { item: itemIndex } }];
}
