// Entry point of the console's client (bundled by esbuild with preact and htm).
import { h, render } from 'preact';
import { App } from './app';
import { installLinkHandler } from './router';
import { startLive } from './live';

installLinkHandler();
startLive();
const root = document.getElementById('root')!;
root.textContent = '';
render(h(App, {}), root);
