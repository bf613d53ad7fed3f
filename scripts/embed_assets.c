/* Build step: writes a C source holding files as byte arrays, so spoor's
 * HTML reports carry their chart library and script without a network or a
 * file beside the binary.
 *   embed_assets OUT.c NAME FILE [NAME FILE]...
 * defines, for each, `const unsigned char NAME[]` (the bytes and a NUL) and
 * `const size_t NAME_len`. A file that holds "</script" cannot go inside an
 * HTML <script> element and is refused. Written as decimal bytes: a 1 MB
 * string literal passes compilers' limits, and CMake reads hex slowly. */
#include <ctype.h>
#include <stdio.h>

static int embed(FILE *out, const char *name, const char *path)
{
    FILE *in = fopen(path, "rb");
    if (!in) {
        fprintf(stderr, "embed_assets: %s: cannot read it (run scripts/install-deps.sh)\n", path);
        return 1;
    }
    static const char closing[] = "</script";
    size_t matched = 0, n = 0;
    int c;
    fprintf(out, "#include <stddef.h>\nconst unsigned char %s[] = {\n", name);
    while ((c = getc(in)) != EOF) {
        matched = tolower(c) == closing[matched] ? matched + 1 : c == '<';
        if (matched == sizeof closing - 1) {
            fprintf(stderr, "embed_assets: %s: holds \"</script\", which would end its <script> element\n", path);
            fclose(in);
            return 1;
        }
        fprintf(out, "%d,%s", c, ++n % 32 ? "" : "\n");
    }
    int failed = ferror(in);
    fclose(in);
    if (failed) {
        fprintf(stderr, "embed_assets: %s: read error\n", path);
        return 1;
    }
    fprintf(out, "0};\nconst size_t %s_len = %zu;\n", name, n);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 4 || argc % 2) {
        fprintf(stderr, "usage: embed_assets OUT.c NAME FILE [NAME FILE]...\n");
        return 2;
    }
    FILE *out = fopen(argv[1], "w");
    if (!out) {
        perror(argv[1]);
        return 1;
    }
    int failed = 0;
    for (int i = 2; i < argc && !failed; i += 2)
        failed = embed(out, argv[i], argv[i + 1]);
    if (fclose(out) != 0)
        failed = 1;
    if (failed)
        remove(argv[1]); /* no half-written source for the next build to take */
    return failed;
}
