/* XGBoost's C API through dlopen (see xgb_api.h). */
#include "ml/xgb_api.h"

#include <pthread.h>

#include "util/dl.h"

static const char LIBRARY[] = "libxgboost.so.0", PACKAGE[] = "libxgboost0";

static struct spoor_xgb_api api;
static pthread_once_t loaded = PTHREAD_ONCE_INIT;

#define LOAD(name) api.name = (__typeof__(api.name))spoor_dl_symbol(lib, LIBRARY, #name, PACKAGE)

static void load(void)
{
    void *lib = spoor_dl_open(LIBRARY, PACKAGE);
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

const struct spoor_xgb_api *spoor_xgb_api(void)
{
    pthread_once(&loaded, load);
    return &api;
}
