// The pages the authorization endpoint answers a person's browser with: the one that takes them
// on to the consent screen of the page at `/` (at once, by a meta refresh, which no script or
// CSP rule stands in the way of; a link for a browser that does not follow it), and the one
// that says an app's request cannot go back to the app (an unknown client, a redirect URI it did
// not register). Plain HTML, no script, no style, nothing loaded from anywhere, in no frame.
import type { HttpError } from '../../errors';
import { type Reply, text } from '../../reply';

const PAGE_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function page(status: number, title: string, head: string, body: string, headers = {}): Reply {
  const html = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">${head}
  <title>${escapeHtml(title)} · tubesum</title>
</head>
<body>
  <main>
    <h1>${escapeHtml(title)}</h1>
${body}
  </main>
</body>
</html>
`;
  return text(status, html, 'text/html; charset=utf-8', {
    ...headers,
    'Content-Security-Policy': PAGE_CSP,
    'X-Frame-Options': 'DENY',
  });
}

/** 200: on to `consentUrl` (the page at `/` with the pending request), at once. */
export function forwardingPage(consentUrl: string): Reply {
  const url = escapeHtml(consentUrl);
  return page(
    200,
    'Connecting an app',
    `\n  <meta http-equiv="refresh" content="0; url=${url}">`,
    `    <p><a href="${url}">Continue to tubesum</a> to sign in and answer the app.</p>`,
  );
}

/** The error page for `error` (its title and, below 500, its detail). */
export function errorPage(error: HttpError): Reply {
  const detail = error.expose
    ? error.message
    : 'The server could not complete the request; try again in a moment.';
  return page(
    error.status,
    error.title,
    '',
    `    <p>${escapeHtml(detail)}</p>\n    <p>Close this page and go back to the app.</p>`,
    error.headers,
  );
}
