/** Entry point of the settings page bundle (scripts/build-web.mjs → dist/web/assets/main.js). */
import { render } from 'preact';
import { App } from './app.js';

const root = document.getElementById('app');
if (root) render(<App />, root);
