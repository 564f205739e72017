#include "train/data/data_error.h"

#include <string>
#include <utility>

namespace umbra {
namespace train {

DataError::DataError(const std::string& message)
    : std::runtime_error(message) {}

DataError::DataError(const std::string& message, std::string key)
    : std::runtime_error(message), key_(std::move(key)) {}

}  // namespace train
}  // namespace umbra
