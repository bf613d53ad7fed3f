/* The dialect state of the field-mapped line readers (mapped_reader.h). */
#include "read/mapped_reader.h"

#include <stdio.h>
#include <stdlib.h>

struct spoor_field_map *spoor_mapped_begin(struct spoor_dialect *d, const struct spoor_format *f,
                                           const struct spoor_read_opts *opts)
{
    struct spoor_field_map *map = spoor_xcalloc(1, sizeof *map);
    d->state = map;
    d->format = f;
    snprintf(d->name, sizeof d->name, "%s", f->name);
    spoor_field_map_init(map, opts);
    return map;
}

int spoor_mapped_finish(const struct spoor_head_fields *h, struct spoor_dialect *d, const struct spoor_read_opts *opts,
                        const char *records, struct spoor_error *err)
{
    int status = spoor_head_finish(h, d->state, opts, d, records, err);
    if (status)
        spoor_mapped_release(d);
    return status;
}

void spoor_mapped_release(struct spoor_dialect *d)
{
    struct spoor_field_map *map = d->state;
    if (!map)
        return;
    spoor_field_map_release(map);
    free(map);
    d->state = NULL;
}
