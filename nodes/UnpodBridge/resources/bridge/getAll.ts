import type { INodeProperties } from 'n8n-workflow';
import { returnAllAndLimit } from '../../../shared/descriptions';

export const getAllFields: INodeProperties[] = returnAllAndLimit({ resource: ['bridge'], operation: ['getAll'] });
