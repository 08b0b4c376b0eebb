// The page a person sees when an app's authorization request cannot go back to the app (an
// unknown client, a redirect URI it did not register): plain HTML, no script, no style, and
// nothing from anywhere (not even this origin), in no frame.
import type { HttpError } from '../errors';
import { type Reply, text } from '../http/reply';

const ERROR_PAGE_CSP =
  "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The error page for `error` (its title and, below 500, its detail). */
export function errorPage(error: HttpError): Reply {
  const detail = error.exposeDetail
    ? error.message
    : 'The server could not complete the request; try again in a moment.';
  const html = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(error.title)} · tubesum</title>
</head>
<body>
  <main>
    <h1>${escapeHtml(error.title)}</h1>
    <p>${escapeHtml(detail)}</p>
    <p>Close this page and go back to the app.</p>
  </main>
</body>
</html>
`;
  return text(error.status, html, 'text/html; charset=utf-8', {
    ...error.headers,
    'Content-Security-Policy': ERROR_PAGE_CSP,
    'X-Frame-Options': 'DENY',
  });
}
