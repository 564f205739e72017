// The main of a fuzz target outside a libFuzzer build: runs
// LLVMFuzzerTestOneInput once on each file named on the command line (every
// file of a directory, in name order), as libFuzzer replays a corpus. A
// corpus test passes when no input crashes, leaks under a sanitizer or
// throws what the target does not catch.
//
//   bazel run //tools/fuzz:config_fuzzer -- crash-1234
//   tools/fuzz/testdata/config
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size);
// Optional, as in libFuzzer: called once before the first input.
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc,
                                                          char*** argv);

namespace {

// The files `path` names: itself, or a directory's regular files sorted.
std::vector<std::filesystem::path> InputFiles(const std::string& path) {
  if (!std::filesystem::is_directory(path)) return {path};
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(path)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize != nullptr) LLVMFuzzerInitialize(&argc, &argv);
  std::size_t replayed = 0;
  for (int i = 1; i < argc; ++i) {
    for (const std::filesystem::path& file : InputFiles(argv[i])) {
      std::ifstream in(file, std::ios::binary);
      if (!in) {
        std::cerr << "replay: cannot read '" << file.string() << "'\n";
        return 1;
      }
      const std::string bytes((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
      LLVMFuzzerTestOneInput(
          reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
      ++replayed;
    }
  }
  if (replayed == 0) {
    std::cerr << "replay: no inputs; name files or directories of inputs\n";
    return 1;
  }
  std::cout << "replay: " << replayed << " inputs, none crashed\n";
  return 0;
}
