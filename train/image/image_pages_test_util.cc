#include "train/image/image_pages_test_util.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>

namespace umbra {
namespace train {
namespace image_test {

void WriteImagePages(const std::string& path,
                     const std::vector<std::string>& pictures, int per_page) {
  constexpr std::uint64_t kPageBytes = std::uint64_t{64} << 20;
  std::ofstream out(path, std::ios::binary);
  std::uint64_t pages = 0;
  for (std::size_t first = 0; first < pictures.size(); first += per_page) {
    const std::size_t last = std::min(pictures.size(), first + per_page);
    const std::uint64_t page = pages++ * kPageBytes;
    std::vector<std::int32_t> words = {static_cast<std::int32_t>(last - first),
                                       0};
    for (std::size_t i = first; i < last; ++i) {
      words.push_back(words.back() + pictures[i].size());
      out.seekp(page + kPageBytes - words.back());
      out.write(pictures[i].data(), pictures[i].size());
    }
    out.seekp(page);
    out.write(reinterpret_cast<const char*>(words.data()),
              words.size() * sizeof(std::int32_t));
  }
  out.close();
  std::filesystem::resize_file(path, pages * kPageBytes);
}

}  // namespace image_test
}  // namespace train
}  // namespace umbra
