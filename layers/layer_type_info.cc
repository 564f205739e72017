#include "layers/layer_type_info.h"

#include <algorithm>
#include <optional>

#include "layers/layer_error.h"
#include "layers/weight_param.h"
#include "param/edit_distance.h"
#include "param/quote.h"

namespace umbra {
namespace layers {
namespace {

std::vector<std::string> PlainKeys(const LayerTypeInfo& info) {
  std::vector<std::string> keys;
  for (const param::ParamManager* manager : info.params) {
    for (const std::string& key : manager->ValidKeys()) keys.push_back(key);
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

std::string Suggest(const std::string& word,
                    const std::vector<std::string>& candidates) {
  std::optional<std::string> closest = param::ClosestMatch(word, candidates);
  return closest ? "; did you mean '" + *closest + "'?" : ";";
}

// The weight tags and their aliases: every prefix a `tag:key` may have.
std::vector<std::string> AcceptedWeightTags(const LayerTypeInfo& info) {
  std::vector<std::string> tags = info.weight_tags;
  for (const auto& alias : info.weight_tag_aliases) {
    tags.push_back(alias.first);
  }
  return tags;
}

}  // namespace

std::string LayerTypeInfo::Problem() const {
  for (const auto& alias : weight_tag_aliases) {
    const bool names_a_tag = std::find(weight_tags.begin(), weight_tags.end(),
                                       alias.second) != weight_tags.end();
    const bool is_a_tag = std::find(weight_tags.begin(), weight_tags.end(),
                                    alias.first) != weight_tags.end();
    const bool repeated =
        std::count_if(
            weight_tag_aliases.begin(), weight_tag_aliases.end(),
            [&](const auto& other) { return other.first == alias.first; }) != 1;
    if (!names_a_tag || is_a_tag || repeated) {
      return "declares the weight tag alias '" + alias.first + "' -> '" +
             alias.second + "'; an alias must name one of its weight tags (" +
             JoinNames(weight_tags) +
             "), be none of them, and be declared "
             "once";
    }
  }
  return "";
}

std::string CanonicalWeightTag(const LayerTypeInfo& info,
                               const std::string& tag) {
  if (std::find(info.weight_tags.begin(), info.weight_tags.end(), tag) !=
      info.weight_tags.end()) {
    return tag;
  }
  for (const auto& alias : info.weight_tag_aliases) {
    if (alias.first == tag) return alias.second;
  }
  return "";
}

std::string WeightTagNames(const LayerTypeInfo& info) {
  std::vector<std::string> names;
  for (const std::string& tag : info.weight_tags) {
    std::vector<std::string> aliases;
    for (const auto& alias : info.weight_tag_aliases) {
      if (alias.second == tag) aliases.push_back(alias.first);
    }
    names.push_back(
        aliases.empty() ? tag : tag + " (also " + JoinNames(aliases) + ")");
  }
  return JoinNames(names);
}

std::vector<std::string> LayerTypeKeys(const LayerTypeInfo& info) {
  std::vector<std::string> keys = PlainKeys(info);
  const std::vector<std::string> weight_keys =
      WeightParam::Manager()->ValidKeys();
  for (const std::string& tag : AcceptedWeightTags(info)) {
    for (const std::string& key : weight_keys) keys.push_back(tag + ":" + key);
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

bool LayerTypeAcceptsKey(const LayerTypeInfo& info, const std::string& key) {
  return LayerKeyError(info, key).empty();
}

std::string LayerKeyError(const LayerTypeInfo& info, const std::string& key) {
  const size_t colon = key.find(':');
  if (colon == std::string::npos) {
    for (const param::ParamManager* manager : info.params) {
      if (manager->Find(key) != nullptr) return "";
    }
    const std::vector<std::string> keys = PlainKeys(info);
    return "unknown key " + QuoteShort(key) + Suggest(key, keys) + " " +
           param::NameList(key, keys, "Valid keys");
  }
  const std::string tag = key.substr(0, colon);
  const std::string sub = key.substr(colon + 1);
  if (CanonicalWeightTag(info, tag).empty()) {
    if (info.weight_tags.empty()) {
      return "key '" + key + "': '" + info.type +
             "' has no weights, so no 'tag:key' settings";
    }
    return "key '" + key + "': unknown weight tag '" + tag + "'" +
           Suggest(tag, AcceptedWeightTags(info)) +
           " Weight tags: " + WeightTagNames(info);
  }
  const param::ParamManager* weight = WeightParam::Manager();
  if (weight->Find(sub) != nullptr) return "";
  const std::vector<std::string> keys = weight->ValidKeys();
  return "key " + QuoteShort(key) + ": " + QuoteShort(sub) +
         " is not a weight setting" + Suggest(sub, keys) + " " +
         param::NameList(sub, keys, "Weight settings");
}

}  // namespace layers
}  // namespace umbra
