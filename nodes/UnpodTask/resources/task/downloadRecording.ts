import type { INodeProperties } from 'n8n-workflow';

const show = { resource: ['task'], operation: ['downloadRecording'] };

export const DEFAULT_MAX_SIZE_MB = 100;

export const downloadRecordingFields: INodeProperties[] = [
	{
		displayName: 'Recording URL',
		name: 'recordingUrl',
		type: 'string',
		required: true,
		default: '={{ $json.recording_url }}',
		placeholder: 'e.g. https://unpod.ai/media/recordings/T3f9c2d7.mp3',
		displayOptions: { show },
		description:
			"The call's recording_url: Unpod Trigger and Task > Get Many (simplified) put it on every ended call. A failed call has none.",
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [
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
		],
	},
];
