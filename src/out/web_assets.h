/* Files an HTML report carries inline, embedded when spoor is built
 * (scripts/embed_assets.c writes them as byte arrays, each NUL-terminated):
 * the chart library, Apache ECharts (web/node_modules, pinned in
 * web/package-lock.json), and spoor's own scripts (the report, and the
 * timeline view it hands the timeline sheets to) and style (web/). */
#ifndef SPOOR_OUT_WEB_ASSETS_H
#define SPOOR_OUT_WEB_ASSETS_H

#include <stddef.h>

extern const unsigned char spoor_asset_echarts[];
extern const size_t spoor_asset_echarts_len;
extern const unsigned char spoor_asset_timeline_js[];
extern const size_t spoor_asset_timeline_js_len;
extern const unsigned char spoor_asset_report_js[];
extern const size_t spoor_asset_report_js_len;
extern const unsigned char spoor_asset_report_css[];
extern const size_t spoor_asset_report_css_len;

#endif
