// What /docs adds to Swagger UI: the page around it, the script that starts it (with a plugin
// for what its markup gets wrong for assistive technology) and the styles that follow it (for
// contrast, the dark mode and a 390 px phone). Plain browser code in strings: it is served as
// it is, never bundled or transformed.
import { ICON } from './icon';

export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light dark">
  <title>tubesum API</title>
  <link rel="icon" href="${ICON}">
  <link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="docs/swagger-ui-bundle.js"></script>
  <script src="docs/init.js"></script>
</body>
</html>
`;

// Each wrapped component is Swagger UI 5's (swagger-api/swagger-ui, src/core/components and
// src/core/plugins/oas3/components); its plugin API (docs/customization/plugin-api.md) lets a
// plugin replace or wrap one, so the fixes live in what Swagger UI renders, not in a pass over
// the DOM after it.
const A11Y_PLUGIN = `function accessibleMarkup(system) {
  var h = system.React.createElement;
  return {
    wrapComponents: {
      // The title and description as the page's banner, so no content is outside a landmark
      // (axe: region; the operations are in Swagger UI's <main>). The role is explicit: Swagger
      // UI puts this in a <section>, where a <header> alone is no banner.
      InfoContainer: function (Original) {
        return function (props) {
          return h('header', { role: 'banner' }, h(Original, props));
        };
      },
      // The title is an <h1> and each tag an <h3> (axe: heading-order): an <h2> between them.
      operations: function (Original) {
        return function (props) {
          return h(system.React.Fragment, null,
            h('h2', { className: 'tubesum-visually-hidden' }, 'Operations'),
            h(Original, props));
        };
      },
      // The path inside an operation's toggle button is a deep link in Swagger UI, an <a> inside
      // the <button> (axe: nested-interactive; swagger-api/swagger-ui#9570 and #10704, open).
      // As text it toggles like the rest of the button; expanding still puts it in the URL.
      OperationSummaryPath: function () {
        return function (props) {
          var op = props.operationProps.toJS();
          var parts = [];
          op.path.split(/(?=\\/)/).forEach(function (part, i) {
            if (i > 0) parts.push(h('wbr', { key: 'w' + i }));
            parts.push(part);
          });
          return h('span', {
            className: op.deprecated ? 'opblock-summary-path__deprecated' : 'opblock-summary-path',
            'data-path': op.path,
          }, h('span', null, parts));
        };
      },
      // The authorizations dialog's close button holds only this icon, which Swagger UI hides
      // from assistive technology (axe: button-name); as an image it names the button.
      CloseIcon: function (Original) {
        return function (props) {
          return h(Original, Object.assign({}, props, {
            'aria-hidden': undefined, role: 'img', 'aria-label': 'Close dialog',
          }));
        };
      },
      // A parameter's field: an enum's <select> has no name in Swagger UI (axe: select-name), an
      // <input> only its placeholder. A <label> around it, with the parameter's name and
      // description as Swagger UI passes them, names both.
      JsonSchema_string: function (Original) {
        return function (props) {
          if (!props.description) return h(Original, props);
          return h('label', null,
            h('span', { className: 'tubesum-visually-hidden' }, props.description),
            h(Original, props));
        };
      },
      // The request body's editor is a bare <textarea> (axe: label).
      TextArea: function (Original) {
        return function (props) {
          var body = /\\bbody-param__text\\b/.test(props.className || '');
          return h(Original, Object.assign(body ? { 'aria-label': 'Request body' } : {}, props));
        };
      },
      // Swagger UI wraps the server <select> in an empty <label> (axe: select-name); with the
      // one server this API lists there is nothing to choose, and requests go to it either way.
      ServersContainer: function (Original) {
        return function (props) {
          var servers = props.specSelectors.servers();
          return servers && servers.size > 1 ? h(Original, props) : null;
        };
      },
    },
  };
}
`;

/** The script that starts Swagger UI: a file, so the page's CSP can forbid inline scripts. */
export const DOCS_INIT = `// Dark when the system is, as the page is: Swagger UI's dark theme is the class dark-mode on
// <html> (swagger-api/swagger-ui#10653), which its own toggle sets only in the standalone preset.
(function () {
  var dark = window.matchMedia('(prefers-color-scheme: dark)');
  var follow = function () {
    document.documentElement.classList.toggle('dark-mode', dark.matches);
  };
  follow();
  dark.addEventListener('change', follow);
})();

${A11Y_PLUGIN}
window.ui = SwaggerUIBundle({
  url: 'openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  tryItOutEnabled: true,
  persistAuthorization: false,
  displayRequestDuration: true,
  // Its colours for JSON reach 4.5:1 on its background, light and dark (the default agate's
  // numbers do not).
  syntaxHighlight: { theme: 'tomorrow-night' },
  plugins: [accessibleMarkup],
});
`;

// Swagger UI's OAuth2 password flow asks for a client id, a client secret and where to send
// them; /token takes neither (no OAuth2 clients here), so the dialog shows only username and
// password. Swagger UI has no option for this, hence the style.
const AUTHORIZE_STYLE = ['client_id_password', 'client_secret_password', 'client_type_password']
  .map((id) => `.auth-container .wrapper:has(#${id})`)
  .join(', ')
  .concat(' { display: none; }');

/**
 * Served after Swagger UI's own stylesheet, in the same file. Colours: Swagger UI's palette where
 * its text reaches WCAG AA's 4.5:1 and darker shades of it where it does not.
 */
export const DOCS_STYLE = `
/* tubesum's additions to Swagger UI's stylesheet */
${AUTHORIZE_STYLE}
.swagger-ui .opblock .opblock-summary-method { color: #000; text-shadow: none; }
.swagger-ui .info .title small pre { color: #fff; }
.swagger-ui .info .title small { background: #4d5562; }
.swagger-ui .info .title small.version-stamp { background: #4d6b00; }
html:not(.dark-mode) .swagger-ui .info a, html:not(.dark-mode) .swagger-ui .info .url { color: #1f69c0; }
html.dark-mode .swagger-ui .info .url { color: #51a8ff; }
html.dark-mode .swagger-ui .opblock .opblock-section-header .try-out__btn.cancel { color: #ff8a80; border-color: #ff8a80; }
html.dark-mode .swagger-ui .headers-wrapper .header-col { color: #e4e6e6; }
.tubesum-visually-hidden {
  position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap;
}
.swagger-ui .btn.authorize { color: #18794e; border-color: #18794e; }
.swagger-ui .btn.authorize svg { fill: #18794e; }
.swagger-ui .btn.try-out__btn.cancel { color: #c62828; border-color: #c62828; }
.swagger-ui .btn.execute { background-color: #1f69c0; border-color: #1f69c0; }
.swagger-ui .json-schema-2020-12-expand-deep-button { color: #595959; }
html:not(.dark-mode) .swagger-ui .parameter__in { color: #595959; }
@media (max-width: 600px) {
  .swagger-ui .opblock .opblock-section-header { flex-wrap: wrap; }
  .swagger-ui .responses-table { table-layout: fixed; width: 100%; }
  .swagger-ui .responses-table .response-col_status { width: 4em; }
  .swagger-ui .responses-table .response-col_links { width: 5em; }
}
`;
