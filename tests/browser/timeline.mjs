// The checks of a job report's timeline view (web/timeline.js), driven with
// the mouse in the open page (reports.mjs calls checkTimeline):
// - it drew: a canvas of nonzero size, bars at the whole run's view;
// - the wheel zooms: the visible range narrows;
// - zoomed in past the finest level (a window around a kept event) it draws
//   exact events;
// - a click on an event shows its fields (ts, dur, cat, name, bytes, pid,
//   tid), and they are those of a kept event of the JSON output's tiles;
// - a click on a process's name opens its threads (when the report has
//   thread lanes).
// Screenshots: NAME-timeline.png zoomed in on events with one clicked, and
// for the first report (`first`) report.png: the whole run, a process open.
import path from 'node:path';

const view = tab => tab.evaluate(() => window.spoorTimelineView.view());

// Lets the view redraw after an interaction (it redraws on the next frame).
const settle = tab => tab.evaluate(() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done))));

// Whether the JSON output's tiles keep an event with these fields.
function keptInJson(expected, f) {
  const strings = expected.timeline_strings.map(r => r.text), lanes = expected.timeline_lanes;
  return expected.timeline_tiles.some(t => lanes[t.lane].pid === f.pid && lanes[t.lane].tid === f.tid &&
    t.ts.some((ts, k) => t.start_ns + ts === f.ts && t.dur[k] === f.dur && strings[t.cat[k]] === f.cat &&
                          strings[t.name[k]] === f.name && t.bytes[k] === f.bytes));
}

export async function checkTimeline(tab, name, expected, shots, first, fail) {
  const area = tab.locator('#timeline .timeline-area');
  await area.scrollIntoViewIfNeeded();
  const box = await area.boundingBox();
  const canvas = await tab.evaluate(() => {
    const c = window.spoorTimelineView.element.querySelector('canvas');
    return c ? [c.width, c.height] : [0, 0];
  });
  if (!canvas[0] || !canvas[1]) return fail(name, `the timeline did not render (${canvas})`);
  const whole = await view(tab);
  if (whole.mode !== 'cells' || !whole.items) fail(name, `the whole run shows ${whole.items} ${whole.mode}, not cells`);

  // the wheel over the lanes zooms in
  await tab.mouse.move(box.x + box.width / 2, box.y + 20);
  for (let i = 0; i < 8; i++) await tab.mouse.wheel(0, -300);
  await settle(tab);
  const zoomed = await view(tab);
  const width = v => v.range[1] - v.range[0];
  if (!(width(zoomed) < width(whole) * 0.9))
    fail(name, `the wheel did not zoom: range ${whole.range} then ${zoomed.range}`);

  // a window narrower than the finest level's buckets, around a kept event
  const run = expected.timeline, lanes = expected.timeline_lanes;
  const tile = expected.timeline_tiles.find(t => t.kept && lanes[t.lane].kind === 'calls') || expected.timeline_tiles[0];
  if (!tile) return fail(name, 'the JSON output has no tiles');
  const start = tile.start_ns + tile.ts[0] - run.first_ts, span = run.finest_ns * 200;
  await tab.evaluate(([a, b]) => window.spoorTimelineView.chart.dispatchAction(
    { type: 'dataZoom', dataZoomIndex: 0, startValue: a, endValue: b }), [start - span / 4, start + span * 3 / 4]);
  await settle(tab);
  const close = await view(tab);
  if (close.mode !== 'events' || !close.items)
    return fail(name, `zoomed to ${close.range} (finest buckets ${run.finest_ns} ns): ${close.items} ${close.mode}, not events`);

  // a click on the widest event drawn: the panel shows the fields of the event on top there
  const target = await tab.evaluate(() => {
    const v = window.spoorTimelineView, items = v.items();
    let best = -1, bestWidth = 0;
    items.forEach((it, i) => { const w = v.rectOf(i).width; if (w > bestWidth) best = i, bestWidth = w; });
    const r = v.rectOf(best), x = r.x + r.width / 2, y = r.y + r.height / 2;
    let top = best; /* later items are drawn over earlier ones */
    items.forEach((it, i) => {
      const q = v.rectOf(i);
      if (x >= q.x && x <= q.x + q.width && y >= q.y && y <= q.y + q.height) top = i;
    });
    return { x: x, y: y, fields: items[top].fields };
  });
  const at = await area.boundingBox();
  await tab.mouse.click(at.x + target.x, at.y + target.y);
  await settle(tab);
  const shown = await tab.evaluate(() => Object.fromEntries([...document.querySelectorAll('#timeline .timeline-panel tr')]
    .map(tr => [tr.cells[0].textContent, tr.cells[1].textContent])));
  const want = ['ts', 'dur', 'cat', 'name', 'bytes', 'pid', 'tid'];
  const spelled = v => (v === null ? '-' : String(v));
  if (Object.keys(shown).join() !== want.join() || want.some(k => shown[k] !== spelled(target.fields[k])))
    fail(name, `the click at an event showed ${JSON.stringify(shown)}, not ${JSON.stringify(target.fields)}`);
  if (!keptInJson(expected, target.fields))
    fail(name, `the clicked event ${JSON.stringify(target.fields)} is no kept event of the JSON output`);
  await tab.locator('#timeline').screenshot({ path: path.join(shots, `${name}-timeline.png`) });

  // the whole run again; a click on the first process's name opens its threads
  await tab.evaluate(() => window.spoorTimelineView.chart.dispatchAction(
    { type: 'dataZoom', dataZoomIndex: 0, start: 0, end: 100 }));
  await settle(tab);
  if (run.thread_lanes) {
    const rows = (await view(tab)).rows;
    /* the last process: the lowest row */
    const row = await tab.evaluate(() => window.spoorTimelineView.labelAt(window.spoorTimelineView.view().rows - 1));
    const now = await area.boundingBox();
    await tab.mouse.click(now.x + row.x, now.y + row.y);
    await settle(tab);
    const opened = (await view(tab)).rows;
    if (!(opened > rows)) fail(name, `a click on a process's name left ${rows} rows (${opened})`);
  }
  if (first) await tab.locator('#timeline').screenshot({ path: path.join(shots, 'report.png') });
  return close;
}
