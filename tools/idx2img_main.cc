// idx2img: writes an MNIST-style IDX image/label pair (Fashion-MNIST, say)
// out as picture files with a .lst, and as a RecordIO pack with its .idx -
// the inputs of iter = img and iter = imgrec - so the same data can be
// trained from all three.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "tools/cli.h"
#include "tools/image_pack.h"
#include "train/data/data_error.h"
#include "train/data/file_bytes.h"
#include "train/data/idx_file.h"
#include "train/image/image.h"
#include "train/image/image_list.h"

namespace umbra {
namespace tools {
namespace {

int Convert(const CommandLine& cli) {
  const std::vector<std::string>& args = cli.positional();
  if (args.size() != 3) throw UsageError("give IMAGES LABELS OUT_PREFIX");
  ImageEncoding encoding;
  encoding.codec = ParseImageCodec(cli.Get("encoding", "png"));
  encoding.quality = std::min(cli.GetInt("quality", 95, 1), 100);
  const std::string images_bytes =
      train::ReadIdxBytes(args[0], train::kIdxImageMagic);
  const std::string labels_bytes =
      train::ReadIdxBytes(args[1], train::kIdxLabelMagic);
  const train::IdxArray images =
      train::ParseIdx(images_bytes, train::kIdxImageMagic, args[0]);
  const train::IdxArray labels =
      train::ParseIdx(labels_bytes, train::kIdxLabelMagic, args[1]);
  if (images.dims[0] != labels.dims[0]) {
    throw train::DataError(
        absl::StrFormat("'%s' holds %d images, '%s' %d labels", args[0],
                        images.dims[0], args[1], labels.dims[0]));
  }
  const std::string prefix = args[2];
  const std::string folder = prefix;
  const std::string list_path = prefix + ".lst";
  RefuseExisting(folder);
  RefuseExisting(list_path);
  ImagePackWriter pack(prefix + ".rec");
  std::filesystem::create_directories(folder);

  const std::size_t rows = images.dims[1], columns = images.dims[2];
  const char* extension = encoding.codec == ImageCodec::kPng ? "png" : "jpg";
  std::vector<train::ImageListEntry> entries;
  train::Image image;
  for (std::uint32_t i = 0; i < images.dims[0]; ++i) {
    image.Resize(rows, columns, 1);
    const absl::string_view pixels =
        images.elements.substr(std::size_t{i} * rows * columns, rows * columns);
    std::copy(pixels.begin(), pixels.end(), image.pixels.begin());
    const std::string encoded = EncodeImage(image, encoding);
    const std::vector<float> label = {
        static_cast<float>(static_cast<unsigned char>(labels.elements[i]))};
    const std::string name = absl::StrFormat("%05d.%s", i, extension);
    train::WriteFileBytes(folder + "/" + name, encoded);
    entries.push_back({i, label, name});
    pack.Add(i, label, encoded);
  }
  train::WriteImageList(list_path, entries);
  pack.Finish();
  std::cerr << absl::StrFormat(
      "idx2img: %d %dx%d images as %s: '%s/' with '%s' (image_root = '%s'), "
      "and '%s' with '%s'\n",
      entries.size(), rows, columns, extension, folder, list_path, folder,
      pack.pack_path(), pack.index_path());
  return 0;
}

}  // namespace
}  // namespace tools
}  // namespace umbra

int main(int argc, char** argv) {
  umbra::tools::CommandLine cli(
      "idx2img IMAGES LABELS OUT_PREFIX [flags]",
      "Writes an MNIST-style IDX pair (plain or gzip) as picture files "
      "OUT_PREFIX/00000.png ...\nwith the list OUT_PREFIX.lst, and as the "
      "RecordIO pack OUT_PREFIX.rec with\nOUT_PREFIX.idx. Instances keep "
      "their order; labels are the label bytes.\nExisting files are never "
      "overwritten.\n"
      "Example: bazel run -c opt //tools:idx2img -- "
      "/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz\n"
      "  /usr/share/datasets/fashion-mnist/t10k-labels-idx1-ubyte.gz "
      "/tmp/fashion/test",
      {{"encoding", "png|jpg", "how images are stored (default png)"},
       {"quality", "Q", "JPEG quality 1..100 (default 95)"}});
  return umbra::tools::RunTool(argc, argv, &cli,
                               [&] { return umbra::tools::Convert(cli); });
}
