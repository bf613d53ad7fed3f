/* spoor's timeline view: draws the timeline_* sheets of `spoor report` (their
 * layout: src/analyze/timeline_sheets.c) as one ECharts custom series, and
 * redraws it as the view zooms. web/report.js hands it the sheets:
 *   window.spoorTimeline(root, sheets, spellNs)
 *
 * Rows: one per process, its calls lane below and its phases lane drawn on
 * top (a thin band); a click on a process's name opens its threads (when the
 * report kept thread lanes), each a row of its own. The x axis is ns after
 * the run's first event: the wheel zooms, a drag pans, the slider below shows
 * and moves the window over the whole run.
 *
 * What is drawn: the coarsest level whose bucket width is at most the visible
 * range over the grid's pixel columns, its cells as bars (colour: the
 * dominant key; opacity: busy / width). Zoomed past the finest level, the
 * exact kept events of the tiles in view (read from the left edge minus the
 * lane's longest kept event, since an event is in the tile of its start),
 * coloured by cat; one under a pixel wide where its pixel column is drawn
 * already is left out (it would not show). A click on a bar shows its fields in the panel below. */
'use strict';
window.spoorTimeline = function (root, sheets, spellNs) {
  const ROW_PX = 28, MAX_ROWS_SHOWN = 30, GRID = { left: 150, right: 40, top: 10, bottom: 70 };
  const PHASE_BAND = 0.3; /* the top of a row: its phases lane */
  const by = {};
  for (const s of sheets) by[s.key] = s;
  const run = by.timeline.data, t0 = run.first_ts, span = Math.max(1, run.last_end - run.first_ts);
  const strings = by.timeline_strings.data.map(r => r.text);
  const lanes = by.timeline_lanes.data;

  function element(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  /* ---- the data, decoded once a level or a lane is first needed ---- */
  const levels = []; /* coarsest first: {width, cells: lane -> row of timeline_cells} */
  for (const row of by.timeline_cells.data) {
    const lv = levels[row.level] || (levels[row.level] = { width: row.width_ns, cells: new Map() });
    lv.cells.set(row.lane, row);
  }
  /* a lane's buckets at a level: starts (bucket index) from the gaps */
  function bucketsOf(row) {
    if (!row.starts) {
      row.starts = new Float64Array(row.gap.length);
      let b = row.first;
      for (let i = 0; i < row.gap.length; i++) row.starts[i] = b += row.gap[i];
    }
    return row.starts;
  }
  const tilesOf = new Map(); /* lane -> its tiles, by start */
  for (const tile of by.timeline_tiles.data) {
    if (!tilesOf.has(tile.lane)) tilesOf.set(tile.lane, []);
    tilesOf.get(tile.lane).push(tile);
  }
  const tileNs = run.tile_ns;

  /* ---- rows: processes, and the threads of the opened ones ---- */
  const processes = new Map(); /* pid -> {calls, phases, threads: Map(tid -> {calls, phases})} */
  lanes.forEach((l, i) => {
    if (!processes.has(l.pid)) processes.set(l.pid, { threads: new Map() });
    const p = processes.get(l.pid);
    const owner = l.tid === null ? p : (p.threads.get(l.tid) || p.threads.set(l.tid, {}).get(l.tid));
    owner[l.kind] = i;
  });
  const opened = new Set();
  let rows = [];
  function layoutRows() {
    rows = [];
    for (const [pid, p] of processes) {
      const threadLanes = [...p.threads.values()];
      const canOpen = run.thread_lanes && p.threads.size > 0;
      rows.push({ label: (canOpen ? (opened.has(pid) ? '▾ ' : '▸ ') : '') + 'pid ' + pid, pid: pid, tid: null,
                  calls: p.calls, phases: p.phases, threadLanes: threadLanes });
      if (opened.has(pid))
        for (const [tid, t] of p.threads)
          rows.push({ label: '   tid ' + tid, pid: pid, tid: tid, calls: t.calls, phases: t.phases, threadLanes: [t] });
    }
  }

  /* ---- colours: a key (cat or phase name) keeps the colour it first got ---- */
  const palette = ['#5470c6', '#91cc75', '#fac858', '#ee6666', '#73c0de', '#3ba272', '#fc8452', '#9a60b4', '#ea7ccc',
                   '#2f4554', '#c23531', '#61a0a8', '#d48265', '#749f83', '#ca8622', '#bda29a', '#6e7074', '#c4ccd3'];
  const colourOf = new Map();
  function colour(key) {
    if (!colourOf.has(key)) colourOf.set(key, palette[colourOf.size % palette.length]);
    return colourOf.get(key);
  }

  /* ---- the page ---- */
  const section = element('section', 'sheet timeline');
  section.id = 'timeline';
  section.appendChild(element('h2', null, 'timeline'));
  if (t0 === null) section.appendChild(element('p', 'note', 'No timed events: nothing to draw.'));
  section.appendChild(element('p', 'note',
    `${run.events} events from ${spellNs(0)} to ${spellNs(span)}; ${run.kept} are embedded exactly, ${run.omitted} ` +
    `omitted from the tiles (each tile, a ${spellNs(tileNs)} window of a thread, keeps its ${run.tile_events} ` +
    'longest). Wheel: zoom; drag: pan; the slider: the whole run. Click a process\'s name to show its threads, ' +
    'a bar to see its fields.'));
  const status = section.appendChild(element('p', 'note timeline-status'));
  const legend = section.appendChild(element('div', 'timeline-legend'));
  const area = section.appendChild(element('div', 'timeline-area'));
  const panel = section.appendChild(element('div', 'timeline-panel'));
  panel.appendChild(element('span', 'note', 'Click a bar for its fields.'));
  root.appendChild(section);

  const chart = echarts.init(area, null, { renderer: 'canvas' });
  let drawn = { values: [], refs: [] }, view = { mode: 'cells', level: 0, range: [0, span] };

  /* An item's rectangle in pixels: its band of its row, at least a pixel wide. */
  function bandRect(value, coord, rowPx) {
    const row = value[0], band = value[5];
    const start = coord([value[1], row]), end = coord([value[2], row]);
    const h = rowPx * 0.8;
    return { x: start[0], y: start[1] - h / 2 + (band ? 0 : h * PHASE_BAND),
             width: Math.max(1, end[0] - start[0]), height: h * (band ? PHASE_BAND : 1 - PHASE_BAND) };
  }

  function renderItem(params, api) {
    const value = [0, 1, 2, 3, 4, 5].map(d => api.value(d));
    const rect = echarts.graphic.clipRectByRect(bandRect(value, api.coord, api.size([0, 1])[1]), params.coordSys);
    return rect && { type: 'rect', shape: rect, style: { fill: value[3], opacity: value[4] } };
  }

  function visibleRows() {
    const y = chart.getModel().getComponent('yAxis', 0).axis.scale.getExtent();
    return [Math.max(0, Math.floor(y[0])), Math.min(rows.length - 1, Math.ceil(y[1]))];
  }

  /* first i with a[i] >= v in a sorted array-like, by key */
  function lowerBound(a, v, key) {
    let lo = 0, hi = a.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (key(a[mid]) < v) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  /* A drawn bar: its value for the series, and where its fields come from
   * (spelled only when asked: a view draws thousands). */
  function pushCells(out, r, lane, band, lv, a, b) {
    const row = lv.cells.get(lane);
    if (!row) return;
    const starts = bucketsOf(row), w = lv.width, base = t0 / w;
    /* bucket start in ns after t0: (bucket - t0 / w) * w */
    for (let i = lowerBound(starts, (a / w) + base - 1, x => x); i < starts.length; i++) {
      const x0 = (starts[i] - base) * w;
      if (x0 > b) break;
      const key = strings[row.key[i]];
      out.values.push([r, x0, x0 + w, colour(key), Math.min(1, 0.2 + 0.8 * row.busy[i] / w), band]);
      out.refs.push({ cells: row, i: i, w: w, r: r });
      out.keys.add(key);
    }
  }

  /* An event under a pixel wide, in a pixel column of its row's band that
   * one already covers, would not show: it is counted, not drawn. */
  function pushEvents(out, r, lane, band, a, b, covered, perPx) {
    const tiles = tilesOf.get(lane);
    if (!tiles) return;
    const from = a + t0 - lanes[lane].longest_ns - tileNs;
    for (let i = lowerBound(tiles, from, t => t.start_ns); i < tiles.length; i++) {
      const tile = tiles[i], start = tile.start_ns - t0;
      if (start > b) break;
      out.tiles++;
      out.omitted += tile.omitted;
      for (let k = 0; k < tile.kept; k++) {
        const x0 = start + tile.ts[k], x1 = x0 + tile.dur[k];
        if (x1 < a || x0 > b) continue;
        const column = Math.floor((x0 - a) / perPx);
        if (x1 - x0 < perPx && covered[column]) { out.hidden++; continue; }
        for (let c = Math.max(0, column); c <= Math.min(covered.length - 1, (x1 - a) / perPx); c++) covered[c] = 1;
        /* coloured as the cells are: a call by its cat, a phase by its name */
        const key = strings[band ? tile.name[k] : tile.cat[k]];
        out.values.push([r, x0, x1, colour(key), 0.9, band]);
        out.refs.push({ tile: tile, k: k, lane: lanes[lane] });
        out.keys.add(key);
      }
    }
  }

  /* The fields of drawn bar i: a bucket's, or an event's as the tiles hold it. */
  function fieldsOf(i) {
    const ref = drawn.refs[i];
    if (ref.cells) {
      const c = ref.cells, x0 = drawn.values[i][1];
      return { start: spellNs(x0), width: spellNs(ref.w), count: c.count[ref.i], busy: spellNs(c.busy[ref.i]),
               key: strings[c.key[ref.i]], pid: rows[ref.r].pid, tid: rows[ref.r].tid };
    }
    const t = ref.tile, k = ref.k;
    return { ts: t.start_ns + t.ts[k], dur: t.dur[k], cat: strings[t.cat[k]], name: strings[t.name[k]],
             bytes: t.bytes[k], pid: ref.lane.pid, tid: ref.lane.tid };
  }

  /* What the view shows now: the level (or the events) for its range. */
  function redraw() {
    const x = chart.getModel().getComponent('xAxis', 0).axis.scale.getExtent();
    const a = x[0], b = x[1], px = Math.max(1, chart.getWidth() - GRID.left - GRID.right);
    const perPx = (b - a) / px;
    const level = levels.findIndex(lv => lv && lv.width <= perPx);
    const out = { values: [], refs: [], keys: new Set(), tiles: 0, omitted: 0, hidden: 0 };
    const [r0, r1] = visibleRows();
    for (let r = r0; r <= r1; r++) {
      const row = rows[r];
      if (level >= 0) {
        if (row.calls !== undefined) pushCells(out, r, row.calls, 0, levels[level], a, b);
        if (row.phases !== undefined) pushCells(out, r, row.phases, 1, levels[level], a, b);
      } else {
        const covered = [new Uint8Array(px + 1), new Uint8Array(px + 1)]; /* per band */
        for (const t of row.threadLanes) {
          if (t.calls !== undefined) pushEvents(out, r, t.calls, 0, a, b, covered[0], perPx);
          if (t.phases !== undefined) pushEvents(out, r, t.phases, 1, a, b, covered[1], perPx);
        }
      }
    }
    drawn = out;
    const n = out.values.length;
    view = { mode: level >= 0 ? 'cells' : 'events', level: level, range: [a, b], items: n, rows: rows.length };
    chart.setOption({ series: [{ id: 'timeline', data: out.values }] });
    status.textContent = `${spellNs(a)} to ${spellNs(b)}: ` + (level >= 0
      ? `level ${level} of ${levels.length} (buckets of ${spellNs(levels[level].width)}), ${n} bars`
      : `exact events: ${n} drawn from ${out.tiles} tiles, which omitted ${out.omitted} shorter ones` +
        (out.hidden ? ` (${out.hidden} under a pixel where one is drawn left out)` : ''));
    legend.textContent = '';
    for (const key of out.keys) {
      const swatch = legend.appendChild(element('span', 'swatch'));
      swatch.style.background = colour(key);
      legend.appendChild(element('span', null, key));
    }
  }

  function showFields(fields) {
    panel.textContent = '';
    const t = panel.appendChild(element('table'));
    for (const [k, v] of Object.entries(fields)) {
      const tr = t.appendChild(element('tr'));
      tr.appendChild(element('th', null, k));
      tr.appendChild(element('td', null, v === null ? '-' : String(v)));
    }
  }

  function setup() {
    layoutRows();
    const shown = Math.min(rows.length, MAX_ROWS_SHOWN);
    area.style.height = (shown * ROW_PX + GRID.top + GRID.bottom) + 'px';
    chart.resize();
    const many = rows.length > MAX_ROWS_SHOWN;
    chart.setOption({
      animation: false,
      grid: GRID,
      xAxis: { type: 'value', min: 0, max: span, axisLabel: { formatter: spellNs, hideOverlap: true },
               splitLine: { show: true } },
      yAxis: { type: 'category', data: rows.map(r => r.label), inverse: true, triggerEvent: true,
               axisLabel: { width: GRID.left - 10, overflow: 'truncate', interval: 0 } },
      dataZoom: [{ id: 'x-inside', type: 'inside', xAxisIndex: 0, filterMode: 'none' },
                 { id: 'x-slider', type: 'slider', xAxisIndex: 0, filterMode: 'none', bottom: 10,
                   labelFormatter: v => spellNs(v) }]
        .concat(many ? [{ id: 'y-slider', type: 'slider', yAxisIndex: 0, filterMode: 'none', right: 5, width: 14,
                          startValue: 0, endValue: MAX_ROWS_SHOWN - 1, zoomLock: true }] : []),
      series: [{ id: 'timeline', type: 'custom', renderItem: renderItem, encode: { x: [1, 2], y: 0 },
                 progressive: 0, data: [] }],
    }, { replaceMerge: ['dataZoom'] });
    redraw();
  }

  let pending = false;
  chart.on('datazoom', () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; redraw(); });
  });
  chart.on('click', p => {
    if (p.componentType === 'yAxis') {
      const row = rows.find(r => r.label === p.value);
      if (!row || row.tid !== null || !run.thread_lanes || !processes.get(row.pid).threads.size) return;
      if (opened.has(row.pid)) opened.delete(row.pid); else opened.add(row.pid);
      setup();
    } else if (p.componentType === 'series') {
      showFields(fieldsOf(p.dataIndex));
    }
  });
  window.addEventListener('resize', () => { chart.resize(); redraw(); });
  setup();

  /* What the browser test reads and drives. */
  return {
    chart: chart, element: area, panel: panel,
    view: () => view,
    items: () => drawn.values.map((value, i) => ({ value: value, fields: fieldsOf(i) })),
    /* item i's rectangle in pixels of the chart's element */
    rectOf: i => {
      const coord = p => chart.convertToPixel({ seriesId: 'timeline' }, p);
      return bandRect(drawn.values[i], coord, Math.abs(coord([0, 1])[1] - coord([0, 0])[1]));
    },
    /* a row's label: where a click opens or closes a process */
    labelAt: r => ({ x: GRID.left - 30, y: chart.convertToPixel({ yAxisIndex: 0 }, rows[r].label) }),
  };
};
