/* A client of the installed libspoor, built by tests/api/install.sh with
 * pkg-config alone: counts the events of the traces given with the stats
 * recipe, through the public API, and prints the total and each name's count. */
#include <stdio.h>

#include <spoor/error.h>
#include <spoor/load.h>
#include <spoor/stats.h>

int main(int argc, char **argv)
{
    struct spoor_load_opts opts = {.threads = 1, .no_cache = true};
    opts.read.args = SPOOR_ARGS_LISTED;
    opts.read.arg_keys = spoor_stats_arg_keys;
    opts.read.n_arg_keys = spoor_stats_n_arg_keys;
    struct spoor_stats_run *run = spoor_stats_begin(spoor_load_threads(&opts));
    struct spoor_sink sink = spoor_stats_sink(run);
    struct spoor_load_result loaded;
    struct spoor_error err;
    spoor_error_clear(&err);
    int st = spoor_load((const char *const *)argv + 1, (size_t)(argc - 1), &opts, &sink, &loaded, &err);
    struct spoor_stats stats;
    spoor_stats_end(run, &stats);
    if (st == SPOOR_OK) {
        printf("events %llu\n", (unsigned long long)stats.events);
        for (size_t i = 0; i < stats.nby_name; i++)
            printf("%s %s %llu\n", stats.by_name[i].cat, stats.by_name[i].name,
                   (unsigned long long)stats.by_name[i].dur.count);
        spoor_load_result_free(&loaded);
    } else {
        fprintf(stderr, "count_events: %s\n", err.msg);
    }
    spoor_stats_free(&stats);
    return st == SPOOR_OK ? 0 : 1;
}
