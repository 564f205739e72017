// ImageDataset: the instances of an EncodedImageSource, decoded (JPEG, PNG),
// resized when `resize` asks, and augmented (cxxnet's augmenter: warp, crop,
// mirror, normalise) on a pool of decode threads, one batch at a time - the
// data set behind iter = img and iter = imgrec.
//
// Each instance draws its random choices from a generator seeded with the
// seed the batch iterator gives it, so a batch is the same whatever
// decode_threads is. When every decoded picture fits in decoded_cache_mb,
// all are decoded once, on every core, when the data set is made, and each
// read augments from memory: the same batches, without decoding again. Buffers
// (encoded bytes, decoded pixels, the augmenter's maps) belong to the decode
// threads and are reused: once they have grown to the largest picture, reading
// allocates nothing.
//
// Example:
//
//   ImageDataset set(std::make_unique<ImageListSource>("a.lst", "img/", 1),
//                    augment, image_augment, decode);
//   BatchIterator it(std::move(set), batch, augment);
//
// Bad pictures (unreadable, not JPEG or PNG, truncated, corrupt, smaller
// than the crop): a DataError naming the instance (list file:line and path,
// or pack and record) and the reason; with skip_bad_images the next good
// instance of the source takes its place, a line on stderr names it once,
// and bad_instances() counts the pictures found bad.
#ifndef UMBRA_TRAIN_IMAGE_IMAGE_DATASET_H_
#define UMBRA_TRAIN_IMAGE_IMAGE_DATASET_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tensor/tensor.h"
#include "train/data/dataset.h"
#include "train/data/instance_transform.h"
#include "train/image/image.h"
#include "train/image/image_augmenter.h"
#include "train/image/image_iterators.h"
#include "train/image/image_sources.h"
#include "train/image/picture_decoder.h"
#include "train/image/worker_pool.h"

namespace umbra {
namespace train {

class ImageDataset : public AugmentingDataset {
 public:
  // Throws DataError with the key: input_shape missing or not 1 or 3
  // channels, a bad augmenter setting, a mean_img file of another shape;
  // and, while making a missing mean_img, for a bad picture.
  ImageDataset(std::unique_ptr<EncodedImageSource> source,
               const AugmentIteratorParam& augment,
               const ImageAugmentParam& image_augment,
               const ImageDecodeParam& decode);

  index_t size() const override { return source_->size(); }
  Shape<3> instance_shape() const override { return shape_; }
  index_t label_width() const override { return source_->label_width(); }
  // Instance `index` as evaluation sees it: no random choice.
  void Read(index_t index, Tensor<cpu, 1, float> data,
            Tensor<cpu, 1, float> label) override;
  void ReadBatch(const std::vector<InstanceRead>& reads,
                 Tensor<cpu, 2, float> data,
                 Tensor<cpu, 2, float> labels) override;
  std::string Describe() const override;

  // Pictures replaced by skip_bad_images so far.
  std::int64_t bad_instances() const override { return bad_images_; }

 private:
  // The buffers of reading and decoding one picture.
  struct Decoding {
    std::string bytes;
    PictureDecoder decoder;
  };
  // What one decode thread owns.
  struct Worker {
    explicit Worker(ImageAugmenter augmenter)
        : augmenter(std::move(augmenter)) {}
    Decoding decoding;
    ImageAugmenter augmenter;
  };

  // Instance `at`'s picture, decoded and resized (from decoded_ when it
  // holds them, else into `decoding`'s buffers), its labels written to
  // `labels`. Throws DataError for a bad picture.
  const Image& Picture(Decoding& decoding, index_t at, float* labels);
  // Reads, decodes and augments instance `index` (or, skipping bad
  // pictures, the next good one) into `data` and its labels into `labels`,
  // with random choices seeded by *seed, or the evaluation transform when
  // `seed` is null.
  void ReadInstance(Worker& worker, ImageAugmenter& augmenter, index_t index,
                    const std::uint64_t* seed, float* data, float* labels);
  // Fills decoded_ when every picture fits in `budget_bytes` (estimated
  // from the first, checked as they come), on every core.
  void DecodeAllIfTheyFit(std::uint64_t budget_bytes);
  bool IsKnownBad(index_t index);
  // Counts `index` as bad and says so, once.
  void MarkBad(index_t index, const std::string& problem);
  // Reads mean_img, or makes it from every instance as `plain` (no
  // normalisation, no random choice) makes it.
  void LoadOrMakeMeanImage(const std::string& path,
                           const ImageAugmenter& plain);

  std::unique_ptr<EncodedImageSource> source_;
  Shape<3> shape_;
  int resize_;
  bool skip_bad_images_;
  WorkerPool pool_;
  std::vector<std::unique_ptr<Worker>> workers_;
  // Every instance's picture, decoded and resized, and its labels
  // (label_width() each); empty when they did not fit decoded_cache_mb.
  std::vector<Image> decoded_;
  std::vector<float> decoded_labels_;
  // shape_ floats, or empty without mean_img.
  std::vector<float> mean_image_;
  std::atomic<std::int64_t> bad_images_{0};
  std::mutex bad_mutex_;
  std::vector<bool> known_bad_;  // guarded by bad_mutex_
};

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_IMAGE_IMAGE_DATASET_H_
