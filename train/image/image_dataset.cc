#include "train/image/image_dataset.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "tensor/tensor.h"
#include "tensor/threads.h"
#include "train/data/data_error.h"
#include "train/data/file_bytes.h"
#include "train/image/mean_image_file.h"

namespace umbra {
namespace train {
namespace {

Shape<3> ImageShapeOf(const AugmentIteratorParam& augment) {
  const std::vector<int>& shape = augment.input_shape;
  if (shape.size() != 3 || (shape[0] != 1 && shape[0] != 3)) {
    throw DataError(
        absl::StrFormat("key 'input_shape': pictures need "
                        "channels,height,width with 1 (grey) or 3 (RGB) "
                        "channels, e.g. 3,224,224; got '%s'",
                        absl::StrJoin(shape, ",")),
        "input_shape");
  }
  return Shape3(shape[0], shape[1], shape[2]);
}

int DefaultDecodeThreads() {
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  return std::max(1, cores - GetNumThreads());
}

// The settings with every normalisation and random choice off: what the
// mean image is made with.
AugmentIteratorParam Unnormalised(AugmentIteratorParam augment) {
  augment.rand_crop = false;
  augment.rand_mirror = false;
  augment.scale = 1.0f;
  augment.divideby = 1.0f;
  augment.mean_value.clear();
  return augment;
}
ImageAugmentParam Unnormalised(ImageAugmentParam param) {
  param.mean_r = param.mean_g = param.mean_b = 0.0f;
  param.std_r = param.std_g = param.std_b = 1.0f;
  param.max_random_contrast = 0.0f;
  param.max_random_illumination = 0.0f;
  return param;
}

}  // namespace

ImageDataset::ImageDataset(std::unique_ptr<EncodedImageSource> source,
                           const AugmentIteratorParam& augment,
                           const ImageAugmentParam& image_augment,
                           const ImageDecodeParam& decode)
    : source_(std::move(source)),
      shape_(ImageShapeOf(augment)),
      resize_(decode.resize),
      skip_bad_images_(decode.skip_bad_images),
      pool_(decode.decode_threads > 0 ? decode.decode_threads
                                      : DefaultDecodeThreads()),
      known_bad_(source_->size(), false) {
  for (int i = 0; i < pool_.size(); ++i) {
    workers_.push_back(std::make_unique<Worker>(ImageAugmenter(
        augment, image_augment, shape_[0], shape_[1], shape_[2])));
  }
  DecodeAllIfTheyFit(static_cast<std::uint64_t>(decode.decoded_cache_mb) << 20);
  if (!decode.mean_img.empty()) {
    const ImageAugmenter plain(Unnormalised(augment),
                               Unnormalised(image_augment), shape_[0],
                               shape_[1], shape_[2]);
    LoadOrMakeMeanImage(decode.mean_img, plain);
  }
}

std::string ImageDataset::Describe() const { return source_->Describe(); }

const Image& ImageDataset::Picture(Decoding& decoding, index_t at,
                                   float* labels) {
  if (!decoded_.empty()) {
    const index_t width = label_width();
    std::copy_n(&decoded_labels_[at * width], width, labels);
    return decoded_[at];
  }
  source_->Read(at, &decoding.bytes, labels);
  return decoding.decoder.Decode(decoding.bytes, shape_[0], resize_);
}

void ImageDataset::DecodeAllIfTheyFit(std::uint64_t budget_bytes) {
  const index_t count = size();
  if (budget_bytes == 0 || count == 0) return;
  WorkerPool all_cores(
      std::max(1, static_cast<int>(std::thread::hardware_concurrency())));
  std::vector<std::unique_ptr<Decoding>> decodings;
  for (int i = 0; i < all_cores.size(); ++i) {
    decodings.push_back(std::make_unique<Decoding>());
  }
  std::vector<Image> pictures(count);
  std::vector<float> labels(count * label_width());
  std::atomic<std::uint64_t> total{0};
  std::atomic<bool> too_large{false};
  const auto decode = [&](int index, int worker) {
    if (too_large) return;
    try {
      pictures[index] =
          Picture(*decodings[worker], index, &labels[index * label_width()]);
    } catch (const DataError& e) {
      const std::string problem = source_->Where(index) + ": " + e.what();
      if (!skip_bad_images_) {
        throw DataError(problem + " (skip_bad_images = 1 skips bad pictures)");
      }
      MarkBad(index, problem);
      return;
    }
    if ((total += pictures[index].pixels.size()) > budget_bytes) {
      too_large = true;
    }
  };
  // The first picture's size times their number: too much, and nothing
  // more is decoded.
  decode(0, 0);
  if (total * static_cast<std::uint64_t>(count) > budget_bytes) return;
  all_cores.Run(static_cast<int>(count - 1),
                [&](int task, int worker) { decode(task + 1, worker); });
  if (too_large) return;
  decoded_ = std::move(pictures);
  decoded_labels_ = std::move(labels);
}

void ImageDataset::ReadInstance(Worker& worker, ImageAugmenter& augmenter,
                                index_t index, const std::uint64_t* seed,
                                float* data, float* labels) {
  const index_t size = source_->size();
  const float* mean = mean_image_.empty() ? nullptr : mean_image_.data();
  for (index_t tries = 0; tries < size; ++tries) {
    const index_t at = (index + tries) % size;
    if (skip_bad_images_ && IsKnownBad(at)) continue;
    try {
      const Image& picture = Picture(worker.decoding, at, labels);
      if (seed == nullptr) {
        augmenter.ProcessCenter(picture, mean, data);
      } else {
        // Every try starts the instance's stream afresh, so a replacement
        // is augmented the same whatever failed before it.
        std::mt19937 rng(static_cast<std::uint32_t>(*seed ^ (*seed >> 32)));
        augmenter.Process(picture, rng, mean, data);
      }
      return;
    } catch (const DataError& e) {
      const std::string problem = source_->Where(at) + ": " + e.what();
      if (!skip_bad_images_) {
        throw DataError(problem + " (skip_bad_images = 1 skips bad pictures)");
      }
      MarkBad(at, problem);
    }
  }
  throw DataError(absl::StrFormat(
      "%s: none of the %d pictures can be read (skip_bad_images = 1)",
      Describe(), size));
}

bool ImageDataset::IsKnownBad(index_t index) {
  std::lock_guard<std::mutex> lock(bad_mutex_);
  return known_bad_[index];
}

void ImageDataset::MarkBad(index_t index, const std::string& problem) {
  std::lock_guard<std::mutex> lock(bad_mutex_);
  if (known_bad_[index]) return;
  known_bad_[index] = true;
  ++bad_images_;
  std::cerr << "data: skipping a bad picture: " << problem << "\n";
}

void ImageDataset::Read(index_t index, Tensor<cpu, 1, float> data,
                        Tensor<cpu, 1, float> label) {
  Worker& worker = *workers_[0];
  ReadInstance(worker, worker.augmenter, index, nullptr, data.dptr_,
               label.dptr_);
}

void ImageDataset::ReadBatch(const std::vector<InstanceRead>& reads,
                             Tensor<cpu, 2, float> data,
                             Tensor<cpu, 2, float> labels) {
  pool_.Run(static_cast<int>(reads.size()), [&](int task, int worker_index) {
    const InstanceRead& read = reads[task];
    Worker& worker = *workers_[worker_index];
    ReadInstance(worker, worker.augmenter, read.index, &read.seed,
                 data[read.row].dptr_, labels[read.row].dptr_);
  });
}

void ImageDataset::LoadOrMakeMeanImage(const std::string& path,
                                       const ImageAugmenter& plain) {
  const index_t floats = shape_.Size();
  if (std::filesystem::exists(path)) {
    mean_image_ = WithKeyContext("mean_img", "mean_img",
                                 [&] { return ReadMeanImage(path, shape_); });
    return;
  }
  // Exact whatever the order: sums of whole pixel values in double.
  std::vector<std::vector<double>> sums(pool_.size(),
                                        std::vector<double>(floats));
  std::vector<std::vector<float>> rows(pool_.size(),
                                       std::vector<float>(floats));
  std::vector<std::vector<float>> labels(
      pool_.size(), std::vector<float>(source_->label_width()));
  std::vector<ImageAugmenter> augmenters(pool_.size(), plain);
  pool_.Run(static_cast<int>(size()), [&](int index, int worker) {
    ReadInstance(*workers_[worker], augmenters[worker], index, nullptr,
                 rows[worker].data(), labels[worker].data());
    for (index_t i = 0; i < floats; ++i) sums[worker][i] += rows[worker][i];
  });
  TensorContainer<cpu, 1, float> mean(Shape1(floats));
  for (index_t i = 0; i < floats; ++i) {
    double total = 0;
    for (const std::vector<double>& sum : sums) total += sum[i];
    mean[i] = static_cast<float>(total / size());
  }
  WithKeyContext("mean_img", "mean_img",
                 [&] { WriteMeanImage(path, shape_, mean.dptr_, size()); });
  mean_image_.assign(mean.dptr_, mean.dptr_ + floats);
  std::cerr << absl::StrFormat(
      "data: %s: made the mean image of %d pictures, saved to '%s'\n",
      Describe(), size(), path);
}

}  // namespace train
}  // namespace umbra
