// Fuzzes a config as the trainer reads it before any data: the lexer, the
// structure builder (netconfig and iterator blocks, overrides), every key
// checked against the shipped schema (layers, iterators, updaters, the
// trainer's keys), the metric lines, and the net built for the configured
// input shapes. The net may take at most kNetBytes (larger ones are refused
// from their shapes, before anything is allocated), which keeps every input
// fast and no config can make the fuzzer allocate more. A ConfigError is the
// answer to a bad config; anything else escaping is a finding.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/strings/string_view.h"
#include "tensor/tensor.h"
#include "train/config/config.h"
#include "train/net/network.h"
#include "train/net_setup.h"

namespace {

constexpr std::int64_t kNetBytes = std::int64_t{4} << 20;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  using namespace umbra::train;  // NOLINT(build/namespaces)
  const absl::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const CheckedConfig checked =
        CheckConfig(ParseTrainConfigText(text, "fuzz.conf"));
    CheckMetrics(checked, std::nullopt);
    const std::vector<umbra::Shape<4>> shapes = ConfiguredInputShapes(checked);
    BasicNetwork<umbra::cpu> net(checked.config, checked.schema, shapes,
                                 kNetBytes);
  } catch (const ConfigError&) {
  }
  return 0;
}
