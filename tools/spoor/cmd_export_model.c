/* spoor --help: a saved model as a dependency-free C header */
/* spoor export-model: a saved model as a dependency-free C header. */
#include "cli_getopt.h"
#include <string.h>

#include "spoor/ml.h"
#include "output_guard.h"
#include "spoor/write.h"

static const char usage[] =
    "usage: spoor export-model MODEL -o FILE [--fixed-point [--static-buffers]] [--prefix NAME]\n"
    "\n"
    "Writes a model from spoor train as one C header with no dependencies: static\n"
    "tables, the feature and class names, the action table if the model has one,\n"
    "and NAME_predict(const double *x) returning the class index (the scaler is\n"
    "folded into the first layer, so x holds raw feature values).\n"
    "\n"
    "With --fixed-point, NAME_predict_fixed(const long long *x) uses integer\n"
    "arithmetic only (no float, no libc, no allocation; builds with -ffreestanding\n"
    "-nostdlib -mgeneral-regs-only, e.g. in a kernel module); x holds each feature\n"
    "in Q16, i.e. floor(value * 65536). Tree splits then go exactly as the model's.\n"
    "The bytes of locals the function keeps on the stack are printed and stated\n"
    "in the header (NAME_STACK_BYTES); over 1024 is refused unless --static-buffers\n"
    "(kernel stacks are 8-16 KiB).\n"
    "\n"
    "options:\n"
    "  -o FILE              the header to write (complete or not at all)\n"
    "  --fixed-point        integer-only inference\n"
    "  --static-buffers     the function's arrays static (little stack; not\n"
    "                       reentrant: callers serialise their calls)\n"
    "  --prefix NAME        prefix of every symbol (default spoor_model)\n"
    "  -h, --help           this help\n";

int cmd_export_model(int argc, char **argv)
{
    const char *header = NULL;
    struct spoor_export_opts o = {.prefix = "spoor_model"};
    const struct cli_option options[] = {
        CLI_OPT_STRING("output", 'o', &header),
        CLI_OPT_STRING("c-header", 0, &header), /* before 0.1.0 */
        CLI_OPT_FLAG("fixed-point", 0, &o.fixed),
        CLI_OPT_STRING("prefix", 0, &o.prefix),
        CLI_OPT_FLAG("static-buffers", 0, &o.static_buffers),
        CLI_END,
    };
    int code = cli_parse("export-model", usage, options, NULL, 0, argc, argv);
    if (code >= 0)
        return code;
    if (optind + 1 != argc || !header)
        return cli_usage_error("export-model", "needs MODEL and -o FILE");
    if (o.static_buffers && !o.fixed)
        return cli_usage_error("export-model", "--static-buffers is for --fixed-point");
    if (output_guard1("export-model", header, (const char *const *)argv + optind, 1, NULL))
        return 2;
    struct spoor_error err = {0};
    struct spoor_model *m = NULL;
    struct spoor_atomic_file out;
    int st = spoor_model_load(argv[optind], &m, &err);
    if (st == SPOOR_OK && (st = spoor_atomic_file_open(&out, header, &err)) == SPOOR_OK) {
        size_t stack = 0;
        st = spoor_export_header(m, out.fp, &o, &stack, &err);
        if (st == SPOOR_OK)
            st = spoor_atomic_file_commit(&out, &err);
        else
            spoor_atomic_file_abort(&out);
        if (st == SPOOR_OK)
            printf("%s: %s_predict%s keeps %zu bytes of locals on the stack%s\n", header, o.prefix,
                   o.fixed ? "_fixed" : "", stack, o.static_buffers ? " (its arrays are static)" : "");
    }
    if (st != SPOOR_OK)
        fprintf(stderr, "spoor export-model: %s\n", err.msg);
    spoor_model_free(m);
    return cli_exit_code(st);
}
