// im2list: writes the .lst list of an image folder with one subfolder per
// class, as MXNet's `im2rec.py --list --recursive` does: shuffled with a
// seed and split into train and validation lists.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "tools/cli.h"
#include "tools/image_pack.h"
#include "train/data/data_error.h"
#include "train/image/image_list.h"

namespace umbra {
namespace tools {
namespace {

namespace fs = std::filesystem;

// The image files under `folder` (any depth), paths relative to `root`,
// sorted.
std::vector<std::string> ImagesUnder(const fs::path& folder,
                                     const fs::path& root,
                                     const std::vector<std::string>& exts) {
  std::vector<std::string> images;
  for (const fs::directory_entry& entry :
       fs::recursive_directory_iterator(folder)) {
    if (!entry.is_regular_file()) continue;
    const std::string ext =
        absl::AsciiStrToLower(entry.path().extension().string());
    if (std::find(exts.begin(), exts.end(), ext) == exts.end()) continue;
    images.push_back(fs::relative(entry.path(), root).string());
  }
  std::sort(images.begin(), images.end());
  return images;
}

int MakeList(const CommandLine& cli) {
  const std::vector<std::string>& args = cli.positional();
  if (args.size() != 2) throw UsageError("give ROOT OUT_PREFIX");
  const fs::path root(args[0]);
  if (!fs::is_directory(root)) {
    throw train::DataError(
        absl::StrFormat("'%s' is not a folder", root.string()));
  }
  const double train_ratio = std::stod(cli.Get("train_ratio", "1"));
  if (!(train_ratio > 0 && train_ratio <= 1)) {
    throw UsageError("--train_ratio must be in (0, 1]");
  }
  std::vector<std::string> exts =
      absl::StrSplit(absl::AsciiStrToLower(cli.Get("exts", ".jpg,.jpeg,.png")),
                     ',', absl::SkipWhitespace());
  for (std::string& ext : exts) {
    if (ext.front() != '.') ext = "." + ext;
  }

  std::vector<std::string> classes;
  for (const fs::directory_entry& entry : fs::directory_iterator(root)) {
    if (entry.is_directory()) classes.push_back(entry.path().filename());
  }
  std::sort(classes.begin(), classes.end());
  if (classes.empty()) {
    throw train::DataError(absl::StrFormat(
        "'%s' has no subfolders: put each class's images in a folder of "
        "its own",
        root.string()));
  }
  std::vector<train::ImageListEntry> entries;
  for (std::size_t label = 0; label < classes.size(); ++label) {
    for (std::string& path : ImagesUnder(root / classes[label], root, exts)) {
      entries.push_back({0, {static_cast<float>(label)}, std::move(path)});
    }
    std::cout << label << "\t" << classes[label] << "\n";
  }
  if (entries.empty()) {
    throw train::DataError(absl::StrFormat(
        "no %s files under '%s'", absl::StrJoin(exts, " "), root.string()));
  }
  if (cli.GetInt("shuffle", 1, 0) != 0) {
    std::mt19937 rng(cli.GetInt("seed", 0, 0));
    std::shuffle(entries.begin(), entries.end(), rng);
  }
  for (std::size_t i = 0; i < entries.size(); ++i) entries[i].index = i;

  const std::string prefix = args[1];
  const std::size_t train_count =
      train_ratio >= 1 ? entries.size()
                       : static_cast<std::size_t>(entries.size() * train_ratio);
  struct Part {
    std::string path;
    std::vector<train::ImageListEntry> entries;
  };
  std::vector<Part> parts;
  if (train_count == entries.size()) {
    parts.push_back({prefix + ".lst", entries});
  } else {
    parts.push_back({prefix + "_train.lst",
                     {entries.begin(), entries.begin() + train_count}});
    parts.push_back(
        {prefix + "_val.lst", {entries.begin() + train_count, entries.end()}});
  }
  for (const Part& part : parts) RefuseExisting(part.path);
  for (const Part& part : parts) {
    train::WriteImageList(part.path, part.entries);
    std::cerr << absl::StrFormat("im2list: %d images of %d classes in '%s'\n",
                                 part.entries.size(), classes.size(),
                                 part.path);
  }
  return 0;
}

}  // namespace
}  // namespace tools
}  // namespace umbra

int main(int argc, char** argv) {
  umbra::tools::CommandLine cli(
      "im2list ROOT OUT_PREFIX [flags]",
      "Writes the .lst list (index<TAB>label<TAB>path) of the images under "
      "ROOT, one\nsubfolder per class: classes are labelled 0, 1, ... in "
      "sorted order (printed\non stdout). Writes OUT_PREFIX.lst, or "
      "OUT_PREFIX_train.lst and OUT_PREFIX_val.lst\nwith --train_ratio below "
      "1. Existing files are never overwritten.\n"
      "Example: bazel run //tools:im2list -- photos/ photos --train_ratio=0.9",
      {{"train_ratio", "R",
        "share of the images in the train list (default 1)"},
       {"shuffle", "1|0", "shuffle before splitting (default 1)"},
       {"seed", "N", "seed of the shuffle (default 0)"},
       {"exts", "LIST", "file extensions taken (default .jpg,.jpeg,.png)"}});
  return umbra::tools::RunTool(argc, argv, &cli,
                               [&] { return umbra::tools::MakeList(cli); });
}
