// The load time of one HTML report in headless Chromium: for each of RUNS
// fresh browser contexts, the ms from navigation start until the load event
// and two animation frames after it (ECharts draws its canvases on the next
// frame after setOption), read from the page's own performance clock. Prints
// {"load_ms": [...], "charts": N, "errors": [...]} as JSON.
//   SPOOR_WEB=web node load_time.mjs CHROMIUM PAGE.html RUNS
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [chromiumPath, page, runs] = process.argv.slice(2);
const require = createRequire(path.join(process.env.SPOOR_WEB, 'package.json'));
const { chromium } = require('playwright-core');

const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
const result = { load_ms: [], charts: 0, errors: [] };
try {
  for (let i = 0; i < Number(runs); i++) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const tab = await context.newPage();
    tab.on('console', m => { if (m.type() === 'error' || m.type() === 'warning') result.errors.push(m.text()); });
    tab.on('pageerror', e => result.errors.push(String(e)));
    await tab.goto(pathToFileURL(path.resolve(page)).href, { waitUntil: 'load', timeout: 120000 });
    const ms = await tab.evaluate(() => new Promise(done =>
      requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now())))));
    result.load_ms.push(ms);
    result.charts = await tab.evaluate(() => (window.spoorCharts || []).length);
    await context.close();
  }
} finally {
  await browser.close();
}
console.log(JSON.stringify(result));
