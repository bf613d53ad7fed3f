/* Links the floating-point (prefix mf) and the fixed-point (prefix mq) header
 * exported from one model. Reads rows of feature values (numbers separated by
 * spaces) on stdin; prints each row's class from both, "float fixed". With
 * "bench N" it prints instead the nanoseconds per prediction of each, over N
 * passes of all rows. Built by tests/cli/ml_export.sh and bench/ml/run.sh. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include FLOAT_HEADER
#include FIXED_HEADER

#define NF MF_NFEATURES

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    size_t n = 0, cap = 1024;
    double *x = malloc(cap * NF * sizeof *x);
    long long *q = NULL;
    for (;;) {
        if (n == cap)
            x = realloc(x, (cap *= 2) * NF * sizeof *x);
        size_t f = 0;
        while (f < NF && scanf("%lf", &x[n * NF + f]) == 1)
            f++;
        if (f < NF)
            break;
        n++;
    }
    q = malloc((n + 1) * NF * sizeof *q);
    for (size_t i = 0; i < n * NF; i++)
        q[i] = (long long)floor(ldexp((float)x[i], MQ_IN_FRAC));
    if (argc == 3 && strcmp(argv[1], "bench") == 0) {
        long passes = atol(argv[2]);
        volatile int sink = 0;
        double t0 = now_ns();
        for (long p = 0; p < passes; p++)
            for (size_t i = 0; i < n; i++)
                sink += mf_predict(x + i * NF);
        double t1 = now_ns();
        for (long p = 0; p < passes; p++)
            for (size_t i = 0; i < n; i++)
                sink += mq_predict_fixed(q + i * NF);
        double t2 = now_ns();
        printf("float_ns %.1f\nfixed_ns %.1f\n", (t1 - t0) / (double)(passes * n), (t2 - t1) / (double)(passes * n));
    } else {
        for (size_t i = 0; i < n; i++)
            printf("%d %d\n", mf_predict(x + i * NF), mq_predict_fixed(q + i * NF));
    }
    free(x);
    free(q);
    return 0;
}
