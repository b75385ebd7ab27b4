import { render } from 'solid-js/web';
import { App } from './App';
import { detectConsoleApi } from './api/port';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
const { api } = detectConsoleApi();
render(() => <App api={api} />, root);
