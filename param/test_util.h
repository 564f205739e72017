// Helpers shared by the param tests.
//
// Example:
//   EXPECT_EQ(ErrorOf([&] { param.Init({{"lr", "x"}}); }),
//             "FullcParam: key 'lr': expected double in (-inf, 10], got 'x'");
//   EXPECT_EQ(ErrorOf([&] { param.Init({{"lr", "1"}}); }), "no error");
#ifndef UMBRA_PARAM_TEST_UTIL_H_
#define UMBRA_PARAM_TEST_UTIL_H_

#include <string>

#include "param/param_error.h"

namespace umbra {
namespace param_test {

// The message of the ParamError that `run()` throws, or "no error" when it
// returns. Any other exception propagates (and fails the test).
template <typename Function>
std::string ErrorOf(Function run) {
  try {
    run();
  } catch (const ParamError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace param_test
}  // namespace umbra

#endif  // UMBRA_PARAM_TEST_UTIL_H_
