// The image iterator types (img, imgrec, imgbin, imginst, cifar) and their
// parameter structs. Linked with alwayslink = 1 so that every program with the
// trainer's data chain knows them.
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "param/param.h"
#include "train/data/file_bytes.h"
#include "train/data/iterator_registry.h"
#include "train/image/cifar_file.h"
#include "train/image/image_augmenter.h"
#include "train/image/image_dataset.h"
#include "train/image/image_iterators.h"
#include "train/image/image_pages.h"
#include "train/image/image_sources.h"
#include "train/image/recordio.h"

namespace umbra {
namespace train {

UMBRA_REGISTER_PARAMETER(ImgIteratorParam);
UMBRA_REGISTER_PARAMETER(ImgRecIteratorParam);
UMBRA_REGISTER_PARAMETER(ImgBinIteratorParam);
UMBRA_REGISTER_PARAMETER(ImageDecodeParam);
UMBRA_REGISTER_PARAMETER(ImageAugmentParam);
UMBRA_REGISTER_PARAMETER(CifarIteratorParam);

namespace {

template <typename Param>
Param ParamOf(const ParamKwargs& kwargs) {
  Param param;
  param.InitAllowUnknown(kwargs);
  return param;
}

// path_data's comma-separated files.
std::vector<std::string> CifarPaths(const CifarIteratorParam& param) {
  return absl::StrSplit(param.path_data, ',', absl::SkipWhitespace());
}

std::unique_ptr<Dataset> MakeImageDataset(
    std::unique_ptr<EncodedImageSource> source, const ParamKwargs& kwargs,
    const AugmentIteratorParam& augment) {
  return std::make_unique<ImageDataset>(std::move(source), augment,
                                        ParamOf<ImageAugmentParam>(kwargs),
                                        ParamOf<ImageDecodeParam>(kwargs));
}

std::unique_ptr<Dataset> MakeImgDataset(const ParamKwargs& kwargs,
                                        const BatchIteratorParam& batch,
                                        const AugmentIteratorParam& augment) {
  const auto param = ParamOf<ImgIteratorParam>(kwargs);
  auto source = WithKeyContext("img", "image_list", [&] {
    return std::make_unique<ImageListSource>(param.image_list, param.image_root,
                                             batch.label_width);
  });
  return MakeImageDataset(std::move(source), kwargs, augment);
}

// The .idx beside a pack, when there is one.
std::string IndexBeside(const std::string& pack) {
  const std::string index = RecordIndexPathFor(pack);
  return std::filesystem::exists(index) ? index : "";
}

std::unique_ptr<Dataset> MakeImgRecDataset(
    const ParamKwargs& kwargs, const BatchIteratorParam& batch,
    const AugmentIteratorParam& augment) {
  const auto param = ParamOf<ImgRecIteratorParam>(kwargs);
  const bool own_index = !param.image_rec_index.empty();
  auto source = WithKeyContext(
      "imgrec", own_index ? "image_rec_index" : "image_rec", [&] {
        return std::make_unique<RecordPackSource>(
            param.image_rec,
            own_index ? param.image_rec_index : IndexBeside(param.image_rec),
            batch.label_width, param.image_list);
      });
  return MakeImageDataset(std::move(source), kwargs, augment);
}

// Every value of `key` in `kwargs`, in order.
std::vector<std::string> EveryValueOf(const ParamKwargs& kwargs,
                                      const std::string& key) {
  std::vector<std::string> values;
  for (const auto& [name, value] : kwargs) {
    if (name == key) values.push_back(value);
  }
  return values;
}

std::vector<ImagePagePart> ImgBinParts(const ParamKwargs& kwargs) {
  const auto param = ParamOf<ImgBinIteratorParam>(kwargs);
  const std::vector<std::string> lists = EveryValueOf(kwargs, "image_list");
  const std::vector<std::string> bins = EveryValueOf(kwargs, "image_bin");
  if (!param.image_conf_prefix.empty()) {
    if (!lists.empty() || !bins.empty()) {
      throw DataError(
          "key 'image_conf_prefix': give either image_conf_prefix "
          "and image_conf_ids or image_list and image_bin, not both",
          "image_conf_prefix");
    }
    return ImagePagePartsOf(param.image_conf_prefix, param.image_conf_ids);
  }
  if (lists.size() != bins.size() || lists.empty()) {
    throw DataError(
        absl::StrFormat("key 'image_bin': %d image_list and %d "
                        "image_bin lines; each .lst needs its .bin (or give "
                        "image_conf_prefix and image_conf_ids)",
                        lists.size(), bins.size()),
        lists.size() < bins.size() ? "image_list" : "image_bin");
  }
  std::vector<ImagePagePart> parts;
  for (std::size_t i = 0; i < lists.size(); ++i) {
    parts.push_back({lists[i], bins[i]});
  }
  return parts;
}

std::unique_ptr<Dataset> MakeImgBinDataset(
    const ParamKwargs& kwargs, const BatchIteratorParam& batch,
    const AugmentIteratorParam& augment) {
  const std::vector<ImagePagePart> parts = ImgBinParts(kwargs);
  auto source = WithKeyContext("imgbin", "image_bin", [&] {
    return std::make_unique<ImagePageSource>(parts, batch.label_width);
  });
  return MakeImageDataset(std::move(source), kwargs, augment);
}

std::unique_ptr<Dataset> MakeCifarDataset(const ParamKwargs& kwargs,
                                          const BatchIteratorParam& batch,
                                          const AugmentIteratorParam& augment) {
  const auto param = ParamOf<CifarIteratorParam>(kwargs);
  return WithKeyContext("cifar", "path_data", [&] {
    return LoadCifar(CifarPaths(param),
                     static_cast<CifarFormat>(param.cifar_format));
  });
}

using FileList = std::vector<std::pair<std::string, std::string>>;

FileList ImgFiles(const ParamKwargs& kwargs) {
  return {{"image_list", ParamOf<ImgIteratorParam>(kwargs).image_list}};
}

FileList ImgRecFiles(const ParamKwargs& kwargs) {
  const auto param = ParamOf<ImgRecIteratorParam>(kwargs);
  FileList files = {{"image_rec", param.image_rec}};
  if (!param.image_rec_index.empty()) {
    files.push_back({"image_rec_index", param.image_rec_index});
  }
  if (!param.image_list.empty()) {
    files.push_back({"image_list", param.image_list});
  }
  return files;
}

FileList ImgBinFiles(const ParamKwargs& kwargs) {
  FileList files;
  for (const ImagePagePart& part : ImgBinParts(kwargs)) {
    files.push_back({"image_list", part.list});
    files.push_back({"image_bin", part.bin});
  }
  return files;
}

FileList CifarFiles(const ParamKwargs& kwargs) {
  FileList files;
  for (const std::string& path :
       CifarPaths(ParamOf<CifarIteratorParam>(kwargs))) {
    files.push_back({"path_data", path});
  }
  return files;
}

[[maybe_unused]] const bool kImgRegistered = RegisterIteratorType(
    {"img",
     IteratorKind::kSource,
     {"ImgIteratorParam", "ImageDecodeParam", "ImageAugmentParam"},
     "JPEG and PNG files named by a .lst list, decoded and augmented on "
     "decode_threads threads.",
     &MakeImgDataset,
     nullptr,
     &ImgFiles});
[[maybe_unused]] const bool kImgRecRegistered = RegisterIteratorType(
    {"imgrec",
     IteratorKind::kSource,
     {"ImgRecIteratorParam", "ImageDecodeParam", "ImageAugmentParam"},
     "A RecordIO pack of MXNet image records (.rec, with its .idx), decoded "
     "and augmented on decode_threads threads.",
     &MakeImgRecDataset,
     nullptr,
     &ImgRecFiles});
// cxxnet read its image pages with two iterators, imgbin and imginst,
// which differed only in how they used threads.
[[maybe_unused]] const bool kImgBinRegistered = RegisterIteratorType(
    {"imgbin",
     IteratorKind::kSource,
     {"ImgBinIteratorParam", "ImageDecodeParam", "ImageAugmentParam"},
     "cxxnet's image pages (im2bin's .bin with its .lst), decoded and "
     "augmented on decode_threads threads.",
     &MakeImgBinDataset,
     nullptr,
     &ImgBinFiles});
[[maybe_unused]] const bool kImgInstRegistered = RegisterIteratorType(
    {"imginst",
     IteratorKind::kSource,
     {"ImgBinIteratorParam", "ImageDecodeParam", "ImageAugmentParam"},
     "cxxnet's other name of imgbin.",
     &MakeImgBinDataset,
     nullptr,
     &ImgBinFiles});
[[maybe_unused]] const bool kCifarRegistered = RegisterIteratorType(
    {"cifar",
     IteratorKind::kSource,
     {"CifarIteratorParam"},
     "CIFAR-10/100 binary files; pixels 0..255 (scale with divideby).",
     &MakeCifarDataset,
     nullptr,
     &CifarFiles});

}  // namespace
}  // namespace train
}  // namespace umbra
