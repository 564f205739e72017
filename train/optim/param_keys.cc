#include "train/optim/param_keys.h"

#include <set>

namespace umbra {
namespace optim {

std::vector<std::string> MergeKeys(
    const std::vector<std::vector<std::string>>& key_lists) {
  std::set<std::string> keys;
  for (const std::vector<std::string>& list : key_lists) {
    keys.insert(list.begin(), list.end());
  }
  return std::vector<std::string>(keys.begin(), keys.end());
}

}  // namespace optim
}  // namespace umbra
