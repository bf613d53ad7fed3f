/* XGBoost's C API, loaded on first use (util/dl.h): linked in, its static
 * registries cost every spoor command ~3 ms at start, which is most of a
 * snapshot re-open. Fields are named as the functions. */
#ifndef SPOOR_ML_XGB_API_H
#define SPOOR_ML_XGB_API_H

#include <xgboost/c_api.h>

#include "spoor/error.h"

struct spoor_xgb_api {
    __typeof__(XGBGetLastError) *XGBGetLastError;
    __typeof__(XGDMatrixCreateFromMat) *XGDMatrixCreateFromMat;
    __typeof__(XGDMatrixSetFloatInfo) *XGDMatrixSetFloatInfo;
    __typeof__(XGDMatrixFree) *XGDMatrixFree;
    __typeof__(XGBoosterCreate) *XGBoosterCreate;
    __typeof__(XGBoosterSetParam) *XGBoosterSetParam;
    __typeof__(XGBoosterUpdateOneIter) *XGBoosterUpdateOneIter;
    __typeof__(XGBoosterPredictFromDMatrix) *XGBoosterPredictFromDMatrix;
    __typeof__(XGBoosterSaveModelToBuffer) *XGBoosterSaveModelToBuffer;
    __typeof__(XGBoosterFree) *XGBoosterFree;
};

/* Loads the functions once (thread-safe; util/dl.h): SPOOR_EIO, err naming
 * the package to install, when the library or a function is missing. */
int spoor_xgb_api_load(struct spoor_error *err);
/* The functions, after spoor_xgb_api_load() succeeded. */
const struct spoor_xgb_api *spoor_xgb_api(void);

#endif
