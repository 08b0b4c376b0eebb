// The page's entry: reads this deployment's settings from the HTML and renders the app.
import { render } from 'preact';
import { App } from './app';
import { readSettings } from './settings';

const root = document.getElementById('app');
if (root) {
  root.replaceChildren();
  render(<App settings={readSettings(document)} />, root);
}
