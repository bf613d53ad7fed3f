/* spoor's HTML report: draws each sheet of the page's data (#spoor-data,
 * written by src/out/report_html.c) as the chart its columns' hints ask for,
 * above a table of its cells. Chart configuration and data plumbing only:
 * ECharts draws.
 *
 * The choice, per rows sheet, from its columns' hints (include/spoor/report.h):
 *   pivot columns: a heatmap of the category against them (with two
 *     categories, one per value of the first);
 *   stacked series: stacked bars along the time column or the category, and
 *     a heatmap of the rows against the stacked columns;
 *   a time column: lines (one chart per series, a line per category value,
 *     when there is a category; else a chart per unit);
 *   two categories: a heatmap per series;
 *   one category: bars (one chart per unit);
 *   box columns: box plots (boxCharts);
 *   no hint: the table alone.
 * Series of no unit each get a chart of their own (their scales are unknown);
 * series of one unit share one. Everything charted is capped (bars, lines,
 * charts per sheet), and the page says what was left out. */
'use strict';
(function () {
  const MAX_BARS = 60, MAX_LINES = 12, MAX_CHARTS = 8, MAX_HEAT = 60, TABLE_OPEN_ROWS = 25;
  const report = JSON.parse(document.getElementById('spoor-data').textContent);
  const root = document.getElementById('spoor-report');
  const charts = [];
  /* What the browser test reads: each chart's element, sheet and columns. */
  window.spoorCharts = charts;
  root.textContent = '';

  function element(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  /* ---- numbers by unit ---- */
  function trim(v, digits) { return String(Number(v.toPrecision(digits))); }
  function scaled(v, steps, base) {
    const a = Math.abs(v);
    for (let i = steps.length - 1; i > 0; i--)
      if (a >= Math.pow(base, i)) return trim(v / Math.pow(base, i), 3) + ' ' + steps[i];
    return trim(v, 3) + (steps[0] ? ' ' + steps[0] : '');
  }
  const spell = {
    ns: v => scaled(v, ['ns', 'us', 'ms', 's'], 1000),
    bytes: v => scaled(v, ['B', 'KiB', 'MiB', 'GiB', 'TiB'], 1024),
    'bytes/s': v => scaled(v, ['B/s', 'KiB/s', 'MiB/s', 'GiB/s'], 1024),
    'MiB/s': v => trim(v, 4) + ' MiB/s',
    share: v => trim(v * 100, 3) + '%',
    change: v => (v > 0 ? '+' : '') + trim(v * 100, 3) + '%',
    per_s: v => trim(v, 4) + '/s',
  };
  function unitSpell(unit) { return spell[unit] || (v => scaled(v, ['', 'k', 'M', 'G', 'T'], 1000)); }
  /* A value axis in the unit; bars start at 0, lines fit their data. */
  function axis(unit, extra) {
    return Object.assign({ type: 'value', name: unit || '', axisLabel: { formatter: unitSpell(unit) } }, extra || {});
  }
  function label(v) { return v === null || v === undefined ? '(none)' : String(v); }
  function isNumber(v) { return typeof v === 'number'; }

  /* ---- charts ---- */
  function chartBox(section, sheetIndex, sheet, kind, columns, title, option) {
    /* many series or columns: the whole width */
    const box = element('figure', columns.length > 8 ? 'chart wide' : 'chart');
    if (title) box.appendChild(element('figcaption', null, title));
    const div = element('div', 'chart-area');
    box.appendChild(div);
    section.querySelector('.charts').appendChild(box);
    const chart = echarts.init(div, null, { renderer: 'canvas' });
    chart.setOption(Object.assign({ animation: false, tooltip: { trigger: kind === 'heatmap' ? 'item' : 'axis', confine: true } },
                                  option));
    charts.push({ element: div, sheet: sheetIndex, key: sheet.key, kind: kind, columns: columns, chart: chart });
  }

  /* A chart's caption naming its series, the first few of many. */
  function seriesTitle(cols) {
    const names = cols.map(c => c.name);
    return names.length > 4 ? `${names.length} series: ${names.slice(0, 3).join(', ')}, …` : names.join(', ');
  }

  /* Series columns grouped so that one chart holds one unit; unitless ones alone. */
  function unitGroups(cols) {
    const groups = [], byUnit = {};
    for (const c of cols) {
      if (!c.unit) { groups.push([c]); continue; }
      if (!byUnit[c.unit]) groups.push(byUnit[c.unit] = []);
      byUnit[c.unit].push(c);
    }
    return groups;
  }

  function capped(list, most, what, notes) {
    if (list.length > most) notes.push(`${what}: the first ${most} of ${list.length} charted`);
    return list.slice(0, most);
  }

  function isTimeText(v) { return typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v); }

  /* The x axis of a time column: real times, numbers, or labels. */
  function xAxisOf(rows, col) {
    const first = rows.find(r => r[col.name] !== undefined && r[col.name] !== null);
    const v = first ? first[col.name] : undefined;
    const named = { name: col.name + (col.unit ? ` (${col.unit})` : ''), nameLocation: 'middle', nameGap: 28 };
    if (isTimeText(v)) return { axis: Object.assign({ type: 'time' }, named), x: r => Date.parse(r[col.name]) };
    if (isNumber(v) && col.unit) return { axis: axis(col.unit, Object.assign({ scale: true }, named)), x: r => r[col.name] };
    return { axis: Object.assign({ type: 'category', data: [...new Set(rows.map(r => label(r[col.name])))] }, named),
             x: r => label(r[col.name]) };
  }

  function lineCharts(section, i, sheet, rows, time, cats, values, notes) {
    const xa = xAxisOf(rows, time);
    const point = (r, c) => [xa.x(r), r[c.name]];
    /* a zoom for long lines; the axis name below the slider then */
    const zoom = rows.length > 50 ? [{ type: 'inside' }, { type: 'slider', bottom: 8 }] : [];
    if (zoom.length) xa.axis.nameGap = 70;
    if (cats.length) {
      const cat = cats[0];
      const keys = capped([...new Set(rows.map(r => label(r[cat.name])))], MAX_LINES, cat.name + ' lines', notes);
      for (const c of values)
        chartBox(section, i, sheet, 'line', [c.name], `${c.name} by ${cat.name}`, {
          legend: { type: 'scroll', top: 0 }, grid: { top: 40, bottom: zoom.length ? 90 : 45, left: 70, right: 30 },
          xAxis: xa.axis, yAxis: axis(c.unit, { scale: true }), dataZoom: zoom,
          series: keys.map(k => ({ type: 'line', name: k, showSymbol: false,
                                   data: rows.filter(r => label(r[cat.name]) === k).map(r => point(r, c)) })),
        });
      return;
    }
    for (const g of unitGroups(values))
      chartBox(section, i, sheet, 'line', g.map(c => c.name), seriesTitle(g), {
        legend: { type: 'scroll', top: 0 }, grid: { top: 40, bottom: zoom.length ? 90 : 45, left: 70, right: 30 },
        xAxis: xa.axis, yAxis: axis(g[0].unit, { scale: true }), dataZoom: zoom,
        series: g.map(c => ({ type: 'line', name: c.name, showSymbol: rows.length <= 50, data: rows.map(r => point(r, c)) })),
      });
  }

  function barCharts(section, i, sheet, rows, cat, values, stacked, notes) {
    /* bars along time: all rows, MAX_BARS at a time in a zoom window; else the first MAX_BARS */
    const along = cat.hint === 'time', shown = along ? rows : capped(rows, MAX_BARS, 'bars', notes);
    const spellX = cat.unit ? v => unitSpell(cat.unit)(Number(v)) : undefined;
    const names = shown.map(r => label(r[cat.name]));
    const rotate = names.length > 8 || names.some(n => n.length > 14) ? 30 : 0;
    /* every label while they fit (ECharts would drop some); along time, its own spacing */
    const xAxis = { type: 'category', data: names,
                    axisLabel: { rotate: rotate, interval: along ? 'auto' : 0, width: 140, overflow: 'truncate',
                                 formatter: spellX } };
    const zoom = along && shown.length > MAX_BARS ? [{ type: 'inside', startValue: 0, endValue: MAX_BARS - 1 },
                                                    { type: 'slider', startValue: 0, endValue: MAX_BARS - 1 }] : [];
    const groups = stacked ? [values] : unitGroups(values);
    for (const g of groups)
      chartBox(section, i, sheet, stacked ? 'stacked' : 'bar', g.map(c => c.name), seriesTitle(g), {
        legend: { type: 'scroll', top: 0 },
        grid: { top: 40, bottom: (rotate ? 90 : 30) + (zoom.length ? 40 : 0), left: 70, right: 30 },
        xAxis: xAxis, yAxis: axis(g[0].unit), dataZoom: zoom,
        series: g.map(c => ({ type: 'bar', name: c.name, stack: stacked ? 'total' : undefined,
                              data: shown.map(r => (isNumber(r[c.name]) ? r[c.name] : null)) })),
      });
  }

  function heatmap(section, i, sheet, columns, title, xs, ys, cells, unit) {
    const values = cells.map(c => c[2]).filter(isNumber);
    const spellIt = unitSpell(unit);
    let min = values.length ? Math.min(...values) : 0, max = values.length ? Math.max(...values) : 1;
    /* signed values (correlations, changes): a diverging scale around 0 */
    const signed = min < 0 && max > 0;
    if (signed) max = Math.max(-min, max), min = -max;
    chartBox(section, i, sheet, 'heatmap', columns, title, {
      grid: { top: 20, bottom: xs.length > 8 ? 170 : 90, left: 140, right: 30 },
      xAxis: { type: 'category', data: xs, axisLabel: { rotate: xs.length > 8 ? 40 : 0, interval: xs.length > 40 ? 'auto' : 0,
                                                        width: 120, overflow: 'truncate' } },
      yAxis: { type: 'category', data: ys, inverse: true,
               axisLabel: { width: 120, overflow: 'truncate', interval: ys.length > 40 ? 'auto' : 0 } },
      visualMap: { min: min, max: max, calculable: true, orient: 'horizontal', left: 'center', bottom: 0, formatter: spellIt,
                   inRange: { color: signed ? ['#3b6fb6', '#f7f7f7', '#c0392b'] : ['#f7fbff', '#6baed6', '#08306b'] } },
      series: [{ type: 'heatmap', data: cells, label: { show: cells.length <= 64, formatter: p => spellIt(p.value[2]) } }],
    });
  }

  /* The category (y) against the pivot columns (x); facets by a first category. */
  function pivotHeatmaps(section, i, sheet, rows, cats, pivots, notes) {
    const y = cats[cats.length - 1], facet = cats.length > 1 ? cats[0] : null;
    const facets = facet ? capped([...new Set(rows.map(r => label(r[facet.name])))], MAX_CHARTS, facet.name, notes) : [null];
    const xs = pivots.map(c => c.name);
    for (const f of facets) {
      const mine = capped(rows.filter(r => f === null || label(r[facet.name]) === f), MAX_HEAT, 'rows', notes);
      const cells = [];
      mine.forEach((r, yi) => pivots.forEach((c, xi) => { if (isNumber(r[c.name])) cells.push([xi, yi, r[c.name]]); }));
      heatmap(section, i, sheet, xs, f === null ? `${y.name} × ${xs.length} columns` : `${f}: ${y.name} × ${xs.length} columns`,
              xs, mine.map(r => (y.unit && isNumber(r[y.name]) ? unitSpell(y.unit)(r[y.name]) : label(r[y.name]))),
              cells, pivots[0].unit);
    }
  }

  function pairHeatmaps(section, i, sheet, rows, cats, values, notes) {
    const [a, b] = cats;
    const xs = capped([...new Set(rows.map(r => label(r[a.name])))], MAX_HEAT, a.name, notes);
    const ys = capped([...new Set(rows.map(r => label(r[b.name])))], MAX_HEAT, b.name, notes);
    for (const c of values) {
      const cells = [];
      for (const r of rows) {
        const x = xs.indexOf(label(r[a.name])), y = ys.indexOf(label(r[b.name]));
        if (x >= 0 && y >= 0 && isNumber(r[c.name])) cells.push([x, y, r[c.name]]);
      }
      heatmap(section, i, sheet, [c.name], `${c.name}: ${a.name} × ${b.name}`, xs, ys, cells, c.unit);
    }
  }

  function drawCharts(section, i, sheet, notes) {
    const rows = sheet.data, cols = sheet.columns;
    /* columns of a hint that hold a number somewhere (a cell may be a sheet) */
    const of = hint => cols.filter(c => c.hint === hint && rows.some(r => isNumber(r[c.name])));
    const time = cols.find(c => c.hint === 'time'), cats = cols.filter(c => c.hint === 'category');
    const stacked = of('stacked'), pivots = of('pivot');
    const values = capped(of('series'), MAX_CHARTS, 'series', notes);
    if (!rows.length) return;
    if (cols.some(c => c.hint === 'box')) return boxCharts(section, i, sheet, rows, cats, notes);
    if (pivots.length && cats.length) pivotHeatmaps(section, i, sheet, rows, cats.slice(0, 2), pivots, notes);
    if (stacked.length && (time || cats.length)) {
      barCharts(section, i, sheet, rows, time || cats[0], stacked, true, notes);
      /* and each part per row: the rows (calls) against the stacked columns (functions) */
      pivotHeatmaps(section, i, sheet, rows, [time || cats[0]], stacked, notes);
    }
    if (!values.length) return;
    if (time) return lineCharts(section, i, sheet, rows, time, cats, values, notes);
    if (cats.length >= 2) return pairHeatmaps(section, i, sheet, rows, cats, values, notes);
    if (cats.length === 1) return barCharts(section, i, sheet, rows, cats[0], values, false, notes);
  }

  /* Box columns, each cell five numbers (lower whisker, p25, median, p75,
   * upper whisker) computed by spoor, drawn as they are: the first category
   * along x, a chart per value of a second (a delay), the box columns side
   * by side (two runs). The test reads each chart's facet. */
  function boxCharts(section, i, sheet, rows, cats, notes) {
    const boxes = sheet.columns.filter(c => c.hint === 'box'), x = cats[0], facet = cats[1];
    if (!x) return;
    const xs = capped([...new Set(rows.map(r => label(r[x.name])))], MAX_BARS, x.name, notes);
    const facets = facet ? capped([...new Set(rows.map(r => label(r[facet.name])))], MAX_CHARTS, facet.name, notes)
                         : [null];
    const rotate = xs.length > 8 || xs.some(n => n.length > 14) ? 30 : 0;
    const spellIt = unitSpell(boxes[0].unit), html = echarts.format.encodeHTML;
    const parts = ['upper whisker', 'p75', 'median', 'p25', 'lower whisker'];
    /* the item as ECharts holds it: the category's index, then the five */
    const tip = p => `${html(p.seriesName)}: ${html(p.name)}<br>` +
                     parts.map((n, j) => `${n} ${spellIt(p.data[p.data.length - 1 - j])}`).join('<br>');
    for (const f of facets) {
      const mine = rows.filter(r => f === null || label(r[facet.name]) === f);
      const box = (k, c) => {
        const r = mine.find(r => label(r[x.name]) === k);
        return r && Array.isArray(r[c.name]) ? r[c.name] : '-';
      };
      chartBox(section, i, sheet, 'boxplot', boxes.map(c => c.name), (f === null ? '' : f + ' ') + 'per ' + x.name, {
        legend: { top: 0 }, grid: { top: 40, bottom: rotate ? 90 : 30, left: 70, right: 30 },
        tooltip: { trigger: 'item', confine: true, formatter: tip },
        xAxis: { type: 'category', data: xs, axisLabel: { rotate: rotate, interval: 0, width: 140, overflow: 'truncate' } },
        yAxis: axis(boxes[0].unit, { scale: true }),
        series: boxes.map(c => ({ type: 'boxplot', name: c.name, data: xs.map(k => box(k, c)) })),
      });
      charts[charts.length - 1].facet = facet ? { column: facet.name, value: f } : null;
    }
  }

  /* ---- tables ---- */
  function cellText(v) {
    if (v === undefined) return '';
    if (v === null) return '-';
    return typeof v === 'object' ? JSON.stringify(v) : String(v);
  }

  function table(heads, rows) {
    const t = element('table');
    const tr = element('tr');
    for (const h of heads) tr.appendChild(element('th', null, h));
    t.appendChild(element('thead')).appendChild(tr);
    const body = t.appendChild(element('tbody'));
    for (const cells of rows) {
      const row = body.appendChild(element('tr'));
      for (const v of cells)
        row.appendChild(element('td', isNumber(v) ? 'num' : v && typeof v === 'object' ? 'nested' : null, cellText(v)));
    }
    return t;
  }

  function sheetTable(sheet) {
    if (sheet.kind === 'props')
      return table(['key', 'value'], Object.entries(sheet.data));
    if (sheet.kind === 'list')
      return table(['value'], sheet.data.map(v => [v]));
    const heads = sheet.columns.map(c => c.name + (c.unit ? ` (${c.unit})` : ''));
    return table(heads, sheet.data.map(r => sheet.columns.map(c => r[c.name])));
  }

  /* ---- the page ---- */
  /* the timeline sheets: drawn once, where the first is, by their own view (web/timeline.js) */
  const isTimeline = s => s.key === 'timeline' || s.columns.some(c => c.hint === 'timeline');
  let timeline = null;
  report.sheets.forEach((sheet, i) => {
    if (isTimeline(sheet)) {
      timeline = timeline || window.spoorTimeline(root, report.sheets.filter(isTimeline), unitSpell('ns'));
      window.spoorTimelineView = timeline;
      return;
    }
    const section = element('section', 'sheet');
    section.id = 'sheet-' + i;
    section.appendChild(element('h2', null, sheet.title || sheet.key || 'overview'));
    section.appendChild(element('div', 'charts'));
    root.appendChild(section); /* before the charts: ECharts sizes them from the page */
    const notes = [];
    if (sheet.every > 1)
      notes.push(`${sheet.rows} rows: one in every ${sheet.every} shown (${sheet.data.length})`);
    if (sheet.kind === 'rows' && sheet.columns.length) drawCharts(section, i, sheet, notes);
    for (const n of notes) section.appendChild(element('p', 'note', n));
    const count = sheet.kind === 'props' ? Object.keys(sheet.data).length : sheet.data.length;
    if (sheet.columns.length && count) {
      const details = element('details');
      details.open = count <= TABLE_OPEN_ROWS;
      details.appendChild(element('summary', null, `table: ${count} ${sheet.kind === 'props' ? 'values' : 'rows'}`));
      details.appendChild(sheetTable(sheet));
      section.appendChild(details);
    }
    if (sheet.footer) section.appendChild(element('p', 'note', sheet.footer));
  });
  /* a chart drawn alone in its row was laid out wider than it ends up */
  charts.forEach(c => c.chart.resize());
  window.addEventListener('resize', () => charts.forEach(c => c.chart.resize()));
})();
