// Helpers for the tests of train/ and its packages: scratch directories and
// files, a config key's line, a ConfigError's message and a KeySchema with
// the keys cxxnet's MNIST examples use.
#ifndef UMBRA_TRAIN_CONFIG_CONFIG_TEST_UTIL_H_
#define UMBRA_TRAIN_CONFIG_CONFIG_TEST_UTIL_H_

#include <functional>
#include <string>

#include "train/config/config.h"

namespace umbra {
namespace train {
namespace testing {

// A new empty directory under TEST_TMPDIR (or /tmp).
std::string NewTestDir(const std::string& name);

// Writes `text` to `path`.
void WriteText(const std::string& path, const std::string& text);

// The bytes of the file at `path`; "" when it cannot be read.
std::string ReadText(const std::string& path);

// The 1-based line of config `text` that sets `key` (`key = ...`), or 0.
int LineOf(const std::string& text, const std::string& key);

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

#endif  // UMBRA_TRAIN_CONFIG_CONFIG_TEST_UTIL_H_
