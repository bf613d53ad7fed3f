/* vmagree: the rows of a file through the module's agreement device,
 * /dev/spoor_ra_model, in the VM of tests/vm/agree.sh. Built static (the
 * initramfs has no libc).
 *
 *   vmagree ROWS NAME
 *
 * ROWS holds one line per row: the model's inputs in Q16, separated by
 * spaces. The rows go through two opens of the device by turns (row 1
 * written to the first, row 2 to the second, then both answers read), so
 * that each open must keep its own answer. Prints "@@a NAME ROW INDEX CLASS"
 * per row (rows from 1). Then checks the protocol on one open: a read with
 * no answer pending gives 0 bytes; a write of too few or too many numbers,
 * of a word, of a number out of range, of two lines, or of nothing fails
 * with EINVAL and leaves no answer. Prints "@@ protocol NAME ok" or
 * "@@ error ..." lines; exits 1 on any error. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEVICE "/dev/spoor_ra_model"

static const char *model;

static int fail(const char *what)
{
    printf("@@ error %s: %s (%s)\n", model, what, strerror(errno));
    return 1;
}

/* Each bad line must fail with EINVAL and leave nothing to read. */
static int check_protocol(int fd, const char *row)
{
    char buf[256];
    int bad = 0;
    if (read(fd, buf, sizeof buf) != 0)
        bad |= fail("a read with no answer pending did not give 0 bytes");
    size_t len = strlen(row);
    const char *first_space = strchr(row, ' '), *last_space = strrchr(row, ' ');
    char *too_few = strndup(row, last_space ? (size_t)(last_space - row) : 0);
    char *too_many = malloc(len + 3), *two_lines = malloc(2 * len + 3), *word = strdup(row);
    char *out_of_range = malloc(len + 32);
    sprintf(too_many, "%s 0", row);
    sprintf(two_lines, "%s\n%s\n", row, row);
    word[0] = 'x';
    sprintf(out_of_range, "9223372036854775808%s", first_space ? first_space : "");
    const char *lines[] = {too_few, too_many, two_lines, word, out_of_range, "", "\n"};
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        errno = 0;
        /* a bad line after a good one: the good one's answer must go too */
        if (write(fd, row, len) != (ssize_t)len)
            bad |= fail("a good row was refused");
        ssize_t w = write(fd, lines[i], strlen(lines[i]));
        if (w != -1 || errno != EINVAL) {
            printf("@@ error %s: the bad line %zu was not refused with EINVAL (%zd)\n", model, i, w);
            bad = 1;
        }
        if (read(fd, buf, sizeof buf) != 0)
            bad |= fail("a refused line left an answer");
    }
    free(too_few), free(too_many), free(two_lines), free(word), free(out_of_range);
    if (!bad)
        printf("@@ protocol %s ok\n", model);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: vmagree ROWS NAME\n");
        return 2;
    }
    model = argv[2];
    FILE *rows = fopen(argv[1], "r");
    int fd[2] = {open(DEVICE, O_RDWR), open(DEVICE, O_RDWR)};
    if (!rows || fd[0] < 0 || fd[1] < 0)
        return fail("cannot open the rows or " DEVICE);
    char *line[2] = {NULL, NULL}, answer[2][128];
    size_t cap[2] = {0, 0};
    long row = 0;
    char *first = NULL;
    for (;;) {
        int n = 0;
        while (n < 2 && getline(&line[n], &cap[n], rows) > 0) {
            line[n][strcspn(line[n], "\n")] = '\0';
            if (!first)
                first = strdup(line[n]);
            n++;
        }
        if (n == 0)
            break;
        for (int i = 0; i < n; i++)
            if (write(fd[i], line[i], strlen(line[i])) != (ssize_t)strlen(line[i]))
                return fail("a row was refused");
        for (int i = 0; i < n; i++) {
            ssize_t got = read(fd[i], answer[i], sizeof answer[i] - 1);
            if (got <= 0)
                return fail("no answer to a row");
            answer[i][got] = '\0';
            answer[i][strcspn(answer[i], "\n")] = '\0';
            printf("@@a %s %ld %s\n", model, ++row, answer[i]);
        }
    }
    if (!first)
        return fail("no rows");
    int bad = check_protocol(fd[1], first);
    close(fd[0]);
    close(fd[1]);
    return bad;
}
