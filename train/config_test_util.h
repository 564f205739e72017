// Helpers for the config tests: catching a ConfigError's message and a
// KeySchema with the keys cxxnet's MNIST examples use.
#ifndef UMBRA_TRAIN_CONFIG_TEST_UTIL_H_
#define UMBRA_TRAIN_CONFIG_TEST_UTIL_H_

#include <functional>
#include <string>

#include "train/config.h"

namespace umbra {
namespace train {
namespace testing {

// Runs `fn` and returns what() of the ConfigError it throws; fails the test
// and returns "" when it throws nothing.
std::string ConfigErrorOf(const std::function<void()>& fn);

// The message of parsing and building `text` as "t.conf".
std::string BuildError(const std::string& text);

// A schema with the trainer's global keys and the layer and iterator types
// of cxxnet's MNIST examples (a stand-in for the registries).
KeySchema MnistSchema();

}  // namespace testing
}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_CONFIG_TEST_UTIL_H_
