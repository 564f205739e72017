// Decode + augmentation speed: batches of 64 pictures read from the .lst
// that $UMBRA_BENCH_LIST names (paths under $UMBRA_BENCH_ROOT), decoded and
// turned into 3 x 224 x 224 float instances with a random crop, a random
// mirror and per-channel mean and std, on 1 and 2 decode threads. Reports
// images per second. tools/bench_image_decode.py makes 256 x 256 JPEGs and
// runs this side by side with Pillow doing the same.
//
//   UMBRA_BENCH_LIST=x.lst UMBRA_BENCH_ROOT=dir \
//       bazel run -c opt //train/image:image_decode_bench
//
// BM_FashionMnistPass reads the Fashion-MNIST training set in batches of 64,
// shuffled, from the IDX files and from tools/fashion_mnist_images.sh's PNG
// pack (input 1,28,28), on the calling thread: the cost per image of each
// source, which the trainer's threadbuffer thread pays.
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "param/param.h"
#include "tensor/tensor.h"
#include "train/data/data.h"
#include "train/image/image_augmenter.h"
#include "train/image/image_dataset.h"
#include "train/image/image_iterators.h"
#include "train/image/image_sources.h"

namespace umbra {
namespace train {
namespace {

constexpr int kBatch = 64;

std::string Environment(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "" : value;
}

void BM_DecodeCropMirrorNormalise(benchmark::State& state) {
  const std::string list = Environment("UMBRA_BENCH_LIST");
  if (list.empty()) {
    state.SkipWithError("set UMBRA_BENCH_LIST and UMBRA_BENCH_ROOT");
    return;
  }
  AugmentIteratorParam augment;
  augment.Init(
      {{"input_shape", "3,224,224"}, {"rand_crop", "1"}, {"rand_mirror", "1"}});
  ImageAugmentParam image_augment;
  image_augment.Init({{"mean_r", "123.68"},
                      {"mean_g", "116.28"},
                      {"mean_b", "103.53"},
                      {"std_r", "58.4"},
                      {"std_g", "57.1"},
                      {"std_b", "57.4"}});
  ImageDecodeParam decode;
  decode.Init({{"decode_threads", std::to_string(state.range(0))}});
  ImageDataset dataset(std::make_unique<ImageListSource>(
                           list, Environment("UMBRA_BENCH_ROOT"), 1),
                       augment, image_augment, decode);
  TensorContainer<cpu, 2, float> data(Shape2(kBatch, 3 * 224 * 224));
  TensorContainer<cpu, 2, float> labels(Shape2(kBatch, 1));
  std::vector<InstanceRead> reads(kBatch);
  std::uint64_t walked = 0;
  for (auto _ : state) {
    for (index_t row = 0; row < kBatch; ++row) {
      reads[row] = {static_cast<index_t>(walked % dataset.size()), row,
                    walked * 0x9e3779b97f4a7c15ull};
      ++walked;
    }
    dataset.ReadBatch(reads, data, labels);
    benchmark::DoNotOptimize(data.dptr_);
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
}
BENCHMARK(BM_DecodeCropMirrorNormalise)
    ->Arg(1)
    ->Arg(2)
    ->ArgName("threads")
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

void BM_FashionMnistPass(benchmark::State& state) {
  const bool from_pack = state.range(0) == 1;
  const std::string pack = "/tmp/umbra-fashion-mnist/png/train.rec";
  const std::string idx = "/usr/share/datasets/fashion-mnist/train-";
  ParamKwargs keys = {{"batch_size", "64"},
                      {"shuffle", "1"},
                      {"input_shape", "1,28,28"},
                      {"silent", "1"}};
  if (from_pack) {
    keys.push_back({"image_rec", pack});
    keys.push_back({"divideby", "256"});
  } else {
    keys.push_back({"path_img", idx + "images-idx3-ubyte.gz"});
    keys.push_back({"path_label", idx + "labels-idx1-ubyte.gz"});
    keys.push_back({"input_flat", "0"});
  }
  std::unique_ptr<DataIterator> it;
  try {
    it = CreateIterator(from_pack ? "imgrec" : "mnist", keys, nullptr);
  } catch (const DataError& e) {
    state.SkipWithError(e.what());
    return;
  }
  std::int64_t images = 0;
  for (auto _ : state) {
    it->BeforeFirst();
    while (it->Next()) images += it->Value().batch_size;
  }
  state.SetItemsProcessed(images);
}
BENCHMARK(BM_FashionMnistPass)
    ->Arg(0)
    ->Arg(1)
    ->ArgName("png_pack")
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace train
}  // namespace umbra
