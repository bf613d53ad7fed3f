// Opens spoor's HTML reports in headless Chromium and checks each page:
// - every chart drew: an ECharts instance on its element and a canvas of
//   nonzero size; the page has at least the charts the manifest asks for;
// - no console error or warning, no uncaught exception;
// - no request leaves file:// (every other one is aborted and counted);
// - the numbers are those of --format json (attribute: jsonl) for the same
//   input: the page's data sheet by sheet (a sampled sheet: its every k-th
//   row), and every number a chart plots is one of its columns' values;
// - every box a box plot draws is, all five numbers, the JSON's box of that
//   group and delay (lifecycle: groups, and compare.groups for the other log);
// - a job report's timeline zooms, pans to exact events and shows a clicked
//   one's fields (timeline.mjs); over raw traces (a manifest's fifth field:
//   what to expect), its rows are named, its counter tracks drawn as the JSON
//   has them, its run-wide phases shown, its axis UTC (checkLanes).
// A PNG screenshot of each page goes to the screenshots folder.
//   node reports.mjs CHROMIUM SCREENSHOT_DIR MANIFEST.tsv
// (manifest lines: NAME, MIN_CHARTS, the page, the JSON or JSON lines file,
// and for raw traces a JSON object: lane, a row label; phases, keys on the
// run-wide row; date, the UTC day the view starts on)
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import path from 'node:path';
import { checkLanes, checkTimeline } from './timeline.mjs';

const [chromiumPath, shots, manifest] = process.argv.slice(2);
const require = createRequire(path.join(process.env.SPOOR_WEB, 'package.json'));
const { chromium } = require('playwright-core');

const problems = [];
const fail = (name, what) => problems.push(`${name}: ${what}`);

function readExpected(file) {
  const text = readFileSync(file, 'utf8');
  if (file.endsWith('.jsonl'))
    return { calls: text.split('\n').filter(Boolean).map(line => JSON.parse(line)) };
  return JSON.parse(text);
}

// Every number anywhere in v.
function numbersIn(v, into) {
  if (typeof v === 'number') into.add(v);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) numbersIn(x, into);
  return into;
}

// The page's data against the JSON: sheet by sheet, members of the top object.
function compareData(name, data, expected) {
  let compared = 0;
  for (const sheet of data.sheets) {
    if (!sheet.json) continue;
    const what = `sheet ${sheet.key || '(top)'}`;
    if (sheet.kind === 'props' && sheet.key === null) {
      for (const [k, v] of Object.entries(sheet.data))
        if (!isDeepStrictEqual(v, expected[k])) fail(name, `${what}: ${k} is ${JSON.stringify(v)}, JSON says ${JSON.stringify(expected[k])}`);
      compared++;
      continue;
    }
    let want = expected[sheet.key];
    if (want === undefined) { fail(name, `${what} is not in the JSON output`); continue; }
    if (sheet.kind === 'rows') {
      if (want.length !== sheet.rows) fail(name, `${what}: ${sheet.rows} rows, JSON has ${want.length}`);
      want = want.filter((_, i) => i % sheet.every === 0);
    }
    if (!isDeepStrictEqual(sheet.data, want)) fail(name, `${what}: the page's cells differ from the JSON output`);
    compared++;
  }
  return compared;
}

// Every number a chart plots is a value of its columns in the JSON output
// (an HTML-only sheet: a number of the JSON output anywhere).
function compareCharts(name, data, charts, expected) {
  const everywhere = numbersIn(expected, new Set());
  for (const c of charts) {
    if (c.kind === 'boxplot') continue; /* compareBoxes checks each box whole */
    const sheet = data.sheets[c.sheet];
    let allowed = everywhere;
    if (sheet.json) {
      allowed = new Set();
      for (const row of expected[sheet.key] || [])
        for (const col of c.columns) if (typeof row[col] === 'number') allowed.add(row[col]);
    }
    let plotted = 0;
    for (const series of c.series)
      for (const point of series) {
        const v = Array.isArray(point) ? point[point.length - 1] : point;
        if (typeof v !== 'number') continue;
        plotted++;
        if (!allowed.has(v)) { fail(name, `chart of ${sheet.key} (${c.columns}) plots ${v}, not in the JSON output`); break; }
      }
    if (!plotted) fail(name, `chart of ${sheet.key} (${c.columns}) plots no number`);
  }
}

// A box plot's boxes against the JSON: along x the values of a --by field
// (the sheet's first category), one chart per delay (its facet); series
// "other" holds the other log's boxes (compare.groups), any other this log's
// (groups). A group without the delay has no box ('-').
function compareBoxes(name, data, charts, expected) {
  const label = v => (v === null || v === undefined ? '(none)' : String(v));
  let boxes = 0;
  for (const c of charts.filter(c => c.kind === 'boxplot')) {
    const by = data.sheets[c.sheet].columns.find(col => col.hint === 'category').name;
    c.series.forEach((items, s) => {
      const groups = c.names[s] === 'other' ? (expected.compare || {}).groups : expected.groups;
      const rows = (groups || {})[by];
      if (!rows) return fail(name, `box plot per ${by}: no groups per ${by} in the JSON output`);
      items.forEach((item, j) => {
        const row = rows.find(r => label(r.value) === c.categories[j]);
        const d = row && row.delays[c.facet.value];
        const want = d && d.count ? [d.whisker_low_ns, d.p25_ns, d.median_ns, d.p75_ns, d.whisker_high_ns] : '-';
        if (!isDeepStrictEqual(item, want))
          fail(name, `box of ${c.facet.value} for ${by} ${c.categories[j]} (${c.names[s]}) is ${JSON.stringify(item)}, ` +
                     `JSON says ${JSON.stringify(want)}`);
        boxes += want !== '-';
      });
    });
  }
  return boxes;
}

const browser = await chromium.launch({ executablePath: chromiumPath, headless: true });
const lines = readFileSync(manifest, 'utf8').split('\n').filter(Boolean);
let timelines = 0;
for (const line of lines) {
  const [name, minCharts, page, jsonFile, wantLanes] = line.split('\t');
  const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const messages = [], requests = [];
  tab.on('console', m => { if (m.type() === 'error' || m.type() === 'warning') messages.push(`${m.type()}: ${m.text()}`); });
  tab.on('pageerror', e => messages.push(`exception: ${e.message}`));
  await tab.route('**/*', route => {
    const url = route.request().url();
    if (url.startsWith('file://')) return route.continue();
    requests.push(url);
    return route.abort();
  });
  const started = Date.now();
  await tab.goto('file://' + page, { waitUntil: 'load' });
  const loadMs = Date.now() - started;
  const got = await tab.evaluate(() => ({
    data: JSON.parse(document.getElementById('spoor-data').textContent),
    charts: (window.spoorCharts || []).map(c => {
      const chart = echarts.getInstanceByDom(c.element);
      const canvas = c.element.querySelector('canvas');
      const option = chart ? chart.getOption() : { series: [], xAxis: [] };
      return { sheet: c.sheet, kind: c.kind, columns: c.columns, instance: !!chart, facet: c.facet,
               width: canvas ? canvas.width : 0, height: canvas ? canvas.height : 0,
               series: option.series.map(s => s.data), names: option.series.map(s => s.name),
               categories: ((option.xAxis || [])[0] || {}).data };
    }),
  }));
  for (const c of got.charts)
    if (!c.instance || !c.width || !c.height)
      fail(name, `chart of sheet ${c.sheet} (${c.kind} ${c.columns}) did not render (${c.width}x${c.height})`);
  if (got.charts.length < Number(minCharts)) fail(name, `${got.charts.length} charts, expected at least ${minCharts}`);
  for (const m of messages) fail(name, `console ${m}`);
  for (const u of requests) fail(name, `requested ${u}`);
  const expected = readExpected(jsonFile);
  const compared = compareData(name, got.data, expected);
  compareCharts(name, got.data, got.charts, expected);
  const boxes = compareBoxes(name, got.data, got.charts, expected);
  const shot = path.join(shots, `${name}.png`);
  await tab.screenshot({ path: shot, fullPage: true });
  if (await tab.evaluate(() => !!window.spoorTimelineView)) {
    const v = await checkTimeline(tab, name, expected, shots, !timelines++, fail);
    if (v) console.log(`${name}: timeline zoomed to ${v.items} exact events`);
    if (wantLanes) {
      const l = await checkLanes(tab, name, expected, shots, JSON.parse(wantLanes), fail);
      console.log(`${name}: ${l.rows} rows, ${l.counters} counter tracks drawn, ${l.phases} run-wide phase bars`);
    }
  }
  console.log(`${name}: ${got.charts.length} charts (${boxes} boxes), ${compared} sheets compared with the JSON, ` +
              `loaded in ${loadMs} ms; ${shot}`);
  await tab.close();
}
await browser.close();
for (const p of problems) console.error('FAIL: ' + p);
console.log(`${lines.length - new Set(problems.map(p => p.split(':')[0])).size} passed, ${new Set(problems.map(p => p.split(':')[0])).size} failed`);
process.exit(problems.length ? 1 : 0);
