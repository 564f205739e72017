// Test helpers of train/optim: the message of the OptimError a call throws.
#ifndef UMBRA_TRAIN_OPTIM_OPTIM_TEST_UTIL_H_
#define UMBRA_TRAIN_OPTIM_OPTIM_TEST_UTIL_H_

#include <string>

#include "gtest/gtest.h"
#include "train/optim/optim_error.h"

namespace umbra {
namespace optim {

// what() of the OptimError `fn()` throws; a test failure and "" when it
// throws nothing.
template <typename Fn>
std::string OptimErrorOf(Fn fn) {
  try {
    fn();
  } catch (const OptimError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an OptimError";
  return "";
}

}  // namespace optim
}  // namespace umbra

#endif  // UMBRA_TRAIN_OPTIM_OPTIM_TEST_UTIL_H_
