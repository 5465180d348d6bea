/**
 * An axios error holds its socket; when a test fails with one, jest's worker cannot send the
 * failure to the parent process ("Converting circular structure to JSON") and the worker dies.
 * Tests see plain errors that keep what matters: method, URL, status and body.
 */
import axios, { AxiosError, AxiosInstance } from 'axios';

function plain(error: unknown): unknown {
	if (!axios.isAxiosError(error)) return error;
	const { config, response, code, message } = error as AxiosError;
	const body = response?.data === undefined ? '' : ` ${JSON.stringify(response.data).slice(0, 1000)}`;
	const where = `${config?.method?.toUpperCase() ?? ''} ${config?.baseURL ?? ''}${config?.url ?? ''}`.trim();
	return new Error(`${message}${code ? ` (${code})` : ''}: ${where}${response ? ` -> ${response.status}` : ''}${body}`);
}

function withPlainErrors(instance: AxiosInstance): AxiosInstance {
	instance.interceptors.response.use(undefined, (error) => Promise.reject(plain(error)));
	return instance;
}

withPlainErrors(axios);
const create = axios.create.bind(axios);
axios.create = ((config) => withPlainErrors(create(config))) as typeof axios.create;
