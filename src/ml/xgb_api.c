/* XGBoost's C API through dlopen (see xgb_api.h). */
#include "ml/xgb_api.h"

#include "util/dl.h"

static const char LIBRARY[] = "libxgboost.so.0", PACKAGE[] = "libxgboost0";

static struct spoor_xgb_api api;
static struct spoor_error load_err; /* code SPOOR_OK once every function is found */
static pthread_once_t loaded = PTHREAD_ONCE_INIT;

#define LOAD(name) api.name = (__typeof__(api.name))spoor_dl_symbol(lib, LIBRARY, #name, PACKAGE, &load_err)

static void load(void)
{
    void *lib = spoor_dl_open(LIBRARY, PACKAGE, &load_err);
    if (!lib)
        return;
    LOAD(XGBGetLastError);
    LOAD(XGDMatrixCreateFromMat);
    LOAD(XGDMatrixSetFloatInfo);
    LOAD(XGDMatrixFree);
    LOAD(XGBoosterCreate);
    LOAD(XGBoosterSetParam);
    LOAD(XGBoosterUpdateOneIter);
    LOAD(XGBoosterPredictFromDMatrix);
    LOAD(XGBoosterSaveModelToBuffer);
    LOAD(XGBoosterFree);
}

int spoor_xgb_api_load(struct spoor_error *err) { return spoor_dl_once(&loaded, load, &load_err, err); }

const struct spoor_xgb_api *spoor_xgb_api(void) { return &api; }
