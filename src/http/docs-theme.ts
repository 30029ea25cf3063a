/**
 * The reference page's colours where Swagger UI's own fall short of WCAG AA contrast (axe-core's
 * color-contrast rule; test: console/e2e/accessibility.e2e.test.ts): the methods' badges, the
 * version badges, the document's address and the Authorize button, in the console's palette.
 */
const METHOD_COLOURS = {
  get: '#0b5cad',
  post: '#1a7f37',
  put: '#8a5a00',
  patch: '#0e6b5c',
  delete: '#b3261e',
  head: '#6e40c9',
  options: '#0b5cad',
};

export const DOCS_THEME_CSS = [
  ...Object.entries(METHOD_COLOURS).map(
    ([method, colour]) => `.swagger-ui .opblock.opblock-${method} .opblock-summary-method { background: ${colour}; }`,
  ),
  '.swagger-ui .info .title small, .swagger-ui .info .title small.version-stamp { background: #57606a; }',
  '.swagger-ui .info .title small pre, .swagger-ui .info .title small .version { color: #ffffff; }',
  '.swagger-ui .info .url, .swagger-ui .info a { color: #0b5cad; }',
  '.swagger-ui .btn.authorize { color: #1a7f37; border-color: #1a7f37; }',
  '.swagger-ui .btn.authorize span { color: #1a7f37; }',
  '.swagger-ui .btn.authorize svg { fill: #1a7f37; }',
].join('\n');
