/* Formats generator events as DataCrumbs Python 2024 lines (json.dumps spacing). */
#ifndef SPOOR_GEN_EMIT_H
#define SPOOR_GEN_EMIT_H

#include "gen/fmt.h"
#include "gen/model.h"

/* Appends one line, '\n' included; b must have GEN_LINE_MAX bytes free. */
void gen_emit_event(struct gen_buf *b, const struct gen_model *m, const struct gen_event *e);

#endif
