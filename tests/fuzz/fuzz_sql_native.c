/* Fuzzes spoor sql's native path with arbitrary query text over the
 * hand-made table of the unit tests: it must never crash, and whenever it
 * takes a statement, every format must print what SQLite prints. SQLite's
 * own work is capped by a progress handler (recursive CTEs never end). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/sql_native_diff.h"
#include "sql/sql_internal.h"

static int steps;

static int stop_long_queries(void *arg)
{
    (void)arg;
    return ++steps > 2000;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct spoor_table *t;
    static struct spoor_sql *s;
    if (!s) {
        struct spoor_error err;
        t = diff_table();
        if (spoor_sql_open(t, NULL, &s, &err) != SPOOR_OK)
            abort();
        sqlite3_progress_handler(spoor_sql_db(s), 1000, stop_long_queries, NULL);
    }
    char *query = malloc(size + 1);
    memcpy(query, data, size);
    query[size] = '\0';
    steps = 0;
    struct diff_run first = diff_once(s, query, SPOOR_SQL_CSV, false);
    if (first.native) {
        bool native;
        steps = 0;
        char *msg = diff_query(s, query, &native);
        if (msg) {
            fprintf(stderr, "native and SQLite differ: %s\n", msg);
            abort();
        }
    }
    free(first.text);
    free(query);
    return 0;
}
