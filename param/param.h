// The umbra parameter registry: everything a user of parameter structs needs.
//
//   Parameter<PType>, UMBRA_DECLARE_PARAMETER / _FIELD / _ALIAS,
//   UMBRA_REGISTER_PARAMETER                              parameter.h
//   FieldEntry<T> (set_default, describe, set_range, set_lower_bound,
//   set_upper_bound, allow_inf_nan, add_enum)             field_entry*.h
//   ParamManager, ParamInitOption, ParamKwargs            param_manager.h
//   ParamFieldInfo                                        field_info.h
//   ParamError                                            param_error.h
//   registry of every struct, Markdown reference          registry.h
//   JSON object of strings                                json.h
//   GetEnv<T>                                             get_env.h
//   UMBRA_DECLARE_TYPE_NAME                               type_name.h
//
// Example:
//
//   #include "param/param.h"
//
//   struct PoolParam : public umbra::Parameter<PoolParam> {
//     int pool_type;
//     std::vector<int> kernel_size;
//     UMBRA_DECLARE_PARAMETER(PoolParam) {
//       UMBRA_DECLARE_FIELD(pool_type).add_enum("max", 0).add_enum("avg", 1)
//           .set_default(0).describe("Pooling function.");
//       UMBRA_DECLARE_FIELD(kernel_size).set_lower_bound(1)
//           .describe("Window height and width, e.g. 2,2.");
//     }
//   };
//   UMBRA_REGISTER_PARAMETER(PoolParam);  // in one .cc
#ifndef UMBRA_PARAM_PARAM_H_
#define UMBRA_PARAM_PARAM_H_

#include "param/edit_distance.h"
#include "param/field_access_entry.h"
#include "param/field_entry.h"
#include "param/field_entry_base.h"
#include "param/field_entry_numeric.h"
#include "param/field_entry_optional.h"
#include "param/field_entry_tuple.h"
#include "param/field_entry_wrapper.h"
#include "param/field_info.h"
#include "param/get_env.h"
#include "param/json.h"
#include "param/param_error.h"
#include "param/param_manager.h"
#include "param/parameter.h"
#include "param/registry.h"
#include "param/type_name.h"

#endif  // UMBRA_PARAM_PARAM_H_
