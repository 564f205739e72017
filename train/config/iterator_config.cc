#include "train/config/iterator_config.h"

#include <string>

#include "absl/strings/str_cat.h"

namespace umbra {
namespace train {

const char* IteratorRoleKey(IteratorRole role) {
  switch (role) {
    case IteratorRole::kTrain:
      return "data";
    case IteratorRole::kEval:
      return "eval";
    case IteratorRole::kPred:
      return "pred";
  }
  return "data";
}

std::string IteratorChain::Describe() const {
  return absl::StrCat(IteratorRoleKey(role), " ", name);
}

}  // namespace train
}  // namespace umbra
