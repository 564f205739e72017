#include "tools/config_net.h"

#include <string>
#include <vector>

#include "train/config/config.h"

namespace umbra {
namespace tools {

ConfigNet BuildConfigNet(const std::string& path,
                         const std::vector<std::string>& overrides) {
  return train::BuildNetWithoutData(train::LoadTrainConfig(path, overrides));
}

train::CheckedConfig CheckConfigFile(
    const std::string& path, const std::vector<std::string>& overrides) {
  return train::CheckConfig(train::LoadTrainConfig(path, overrides));
}

}  // namespace tools
}  // namespace umbra
