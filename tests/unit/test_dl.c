/* A library or function that cannot be loaded is an error the caller gets
 * back (util/dl.h), naming the package to install; the program goes on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "util/dl.h"

static void missing_library_is_an_error(void **state)
{
    struct spoor_error err = {0};
    assert_null(spoor_dl_open("libspoor-absent.so.0", "libspoor-absent0", &err));
    assert_int_equal(err.code, SPOOR_EIO);
    assert_non_null(strstr(err.msg, "cannot load libspoor-absent.so.0 ("));
    assert_non_null(strstr(err.msg, "); install libspoor-absent0"));
}

static void missing_function_is_an_error(void **state)
{
    struct spoor_error err = {0};
    void *libc = spoor_dl_open("libc.so.6", "libc6", &err);
    assert_non_null(libc);
    assert_int_equal(err.code, SPOOR_OK);
    assert_non_null(spoor_dl_symbol(libc, "libc.so.6", "strlen", "libc6", &err));
    assert_int_equal(err.code, SPOOR_OK);
    assert_null(spoor_dl_symbol(libc, "libc.so.6", "spoor_absent", "libc6", &err));
    assert_int_equal(err.code, SPOOR_EIO);
    assert_string_equal(err.msg, "libc.so.6 has no spoor_absent; install libc6");
}

/* What a failed first load left is what every later caller gets. */
static struct spoor_error load_err;
static int loads;

static void failing_load(void)
{
    loads++;
    spoor_dl_open("libspoor-absent.so.0", "libspoor-absent0", &load_err);
}

static void failed_load_is_reported_to_every_caller(void **state)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    for (int call = 0; call < 2; call++) {
        struct spoor_error err = {0};
        assert_int_equal(spoor_dl_once(&once, failing_load, &load_err, &err), SPOOR_EIO);
        assert_string_equal(err.msg, load_err.msg);
    }
    assert_int_equal(loads, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(missing_library_is_an_error),
        cmocka_unit_test(missing_function_is_an_error),
        cmocka_unit_test(failed_load_is_reported_to_every_caller),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
