// Screenshot of the API reference (/docs) in headless Chromium: one operation's 200 response,
// as its schema and as its example, in one image.
//   node scripts/docs-screenshot.mjs [base URL, default http://127.0.0.1:3000] [output, default docs/api-reference.png]
// Needs a running service and Chromium at CHROMIUM_PATH (default /usr/bin/chromium).
import { chromium } from 'playwright-core';

const base = process.argv[2] ?? 'http://127.0.0.1:3000';
const output = process.argv[3] ?? 'docs/api-reference.png';
const OPERATION = '#operations-Meters-get_api_v1_meters__id_';

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  await page.goto(`${base}/docs/${OPERATION}`, { waitUntil: 'networkidle' });
  const operation = page.locator(OPERATION);
  if (!(await operation.locator('.opblock-body').isVisible())) await operation.locator('.opblock-summary').click();
  const success = operation.locator('tr.response[data-code="200"]');
  await success.waitFor();

  const example = await success.screenshot();
  await success.getByRole('tab', { name: 'Schema' }).click();
  // Open the schema of data with every field in it ("Expand all" on its row).
  const data = success
    .locator('.json-schema-2020-12-property')
    .filter({ has: page.locator('.json-schema-2020-12__title', { hasText: /^data$/ }) })
    .first();
  await data.locator('.json-schema-2020-12-expand-deep-button').first().click();
  const schema = await success.screenshot();

  const heading = await operation.locator('.opblock-summary').screenshot();
  const image = (png) => `<img src="data:image/png;base64,${png.toString('base64')}">`;
  await page.setContent(
    `<body style="margin:0;padding:16px;background:#fff;font-family:sans-serif">
       ${image(heading)}
       <h3 style="margin:16px 0 4px">200: the response schema</h3>${image(schema)}
       <h3 style="margin:16px 0 4px">200: its example</h3>${image(example)}
     </body>`,
  );
  await page.screenshot({ path: output, fullPage: true });
  console.log(`wrote ${output}`);
} finally {
  await browser.close();
}
