/* Page 1: the 100-byte database header and the root of sqlite_schema, the
 * table of CREATE statements with the root page of each b-tree. Written
 * last, once every root is known. */
#include "out/sqlite_file/sqlite_file_pages.h"

#include <sqlite3.h>
#include <string.h>

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (24 - 8 * i));
}

static void write_header(uint8_t *h, uint32_t npages, uint32_t freelist, uint32_t nfree)
{
    memcpy(h, "SQLite format 3", 16);
    h[16] = SQLF_PAGE >> 8;
    h[17] = SQLF_PAGE & 0xff;
    h[18] = h[19] = 1;          /* legacy (rollback journal) file format */
    h[21] = 64;                 /* payload fractions: fixed by the format */
    h[22] = 32;
    h[23] = 32;
    put_u32(h + 24, 1);         /* change counter */
    put_u32(h + 28, npages);    /* valid: 92 holds the same change counter */
    put_u32(h + 32, freelist);  /* numbers handed out to sinks but not used */
    put_u32(h + 36, nfree);
    put_u32(h + 40, 1);         /* schema cookie */
    put_u32(h + 44, 4);         /* schema format 4: 0/1 serial types, DESC indexes */
    put_u32(h + 56, 1);         /* UTF-8 */
    put_u32(h + 92, 1);
    put_u32(h + 96, SQLITE_VERSION_NUMBER);
}

int sqlf_finish(struct sqlf_file *f, const struct sqlf_object *objects, size_t n, struct spoor_error *err)
{
    struct sqlf_table schema;
    sqlf_table_start(&schema, f, true);
    struct sqlf_record rec = {0};
    struct sqlf_buf bytes = {0};
    for (size_t i = 0; i < n; i++) {
        const struct sqlf_object *o = &objects[i];
        sqlf_record_clear(&rec);
        sqlf_record_text(&rec, o->type, strlen(o->type));
        sqlf_record_text(&rec, o->name, strlen(o->name));
        sqlf_record_text(&rec, o->table, strlen(o->table));
        sqlf_record_int(&rec, o->root);
        sqlf_record_text(&rec, o->sql, strlen(o->sql));
        sqlf_record_finish(&rec, &bytes);
        sqlf_table_add(&schema, i + 1, bytes.p, bytes.len);
    }
    sqlf_record_free(&rec);
    sqlf_buf_free(&bytes);
    uint8_t page1[SQLF_PAGE];
    sqlf_table_finish(&schema, page1);
    uint32_t nfree, freelist = sqlf_file_freelist(f, &nfree);
    write_header(page1, f->npages, freelist, nfree);
    return sqlf_file_close(f, page1, err);
}
