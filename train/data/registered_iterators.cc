// The built-in iterator types and their parameter structs. Linked with
// alwayslink = 1 so that every program that uses the data library knows them.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "param/param.h"
#include "train/data/attach_text_iterator.h"
#include "train/data/binary_format.h"
#include "train/data/csv_file.h"
#include "train/data/file_bytes.h"
#include "train/data/idx_file.h"
#include "train/data/iterator_registry.h"
#include "train/data/memory_buffer_iterator.h"
#include "train/data/source_iterators.h"
#include "train/data/thread_buffer_iterator.h"

namespace umbra {
namespace train {

UMBRA_REGISTER_PARAMETER(MnistIteratorParam);
UMBRA_REGISTER_PARAMETER(CsvIteratorParam);
UMBRA_REGISTER_PARAMETER(BinaryIteratorParam);
UMBRA_REGISTER_PARAMETER(MemoryBufferParam);
UMBRA_REGISTER_PARAMETER(AttachTextParam);

namespace {

std::unique_ptr<Dataset> MakeMnistDataset(const ParamKwargs& kwargs,
                                          const BatchIteratorParam& batch,
                                          const AugmentIteratorParam& augment) {
  MnistIteratorParam param;
  param.InitAllowUnknown(kwargs);
  return LoadMnist(param.path_img, param.path_label, param.input_flat);
}

std::unique_ptr<Dataset> MakeCsvDataset(const ParamKwargs& kwargs,
                                        const BatchIteratorParam& batch,
                                        const AugmentIteratorParam& augment) {
  CsvIteratorParam param;
  param.InitAllowUnknown(kwargs);
  return LoadCsv(param.filename, param.has_header, batch.label_width,
                 augment.input_shape);
}

std::unique_ptr<Dataset> MakeBinaryDataset(
    const ParamKwargs& kwargs, const BatchIteratorParam& batch,
    const AugmentIteratorParam& augment) {
  BinaryIteratorParam param;
  param.InitAllowUnknown(kwargs);
  return WithKeyContext("binary", "path_data",
                        [&] { return OpenBinaryDataset(param.path_data); });
}

std::vector<std::pair<std::string, std::string>> MnistFiles(
    const ParamKwargs& kwargs) {
  MnistIteratorParam param;
  param.InitAllowUnknown(kwargs);
  return {{"path_img", param.path_img}, {"path_label", param.path_label}};
}

std::vector<std::pair<std::string, std::string>> CsvFiles(
    const ParamKwargs& kwargs) {
  CsvIteratorParam param;
  param.InitAllowUnknown(kwargs);
  return {{"filename", param.filename}};
}

std::vector<std::pair<std::string, std::string>> BinaryFiles(
    const ParamKwargs& kwargs) {
  BinaryIteratorParam param;
  param.InitAllowUnknown(kwargs);
  return {{"path_data", param.path_data}};
}

// A wrapper of type Iterator with its parameter struct Param.
template <typename Iterator, typename Param>
std::unique_ptr<DataIterator> Wrap(std::unique_ptr<DataIterator> base,
                                   const ParamKwargs& kwargs) {
  Param param;
  param.Init(kwargs);
  return std::make_unique<Iterator>(std::move(base), param);
}

[[maybe_unused]] const bool kMnistRegistered = RegisterIteratorType(
    {"mnist",
     IteratorKind::kSource,
     {"MnistIteratorParam"},
     "MNIST-style IDX image and label files, plain or gzip; pixels / 256.",
     &MakeMnistDataset,
     nullptr,
     &MnistFiles});
[[maybe_unused]] const bool kCsvRegistered = RegisterIteratorType(
    {"csv",
     IteratorKind::kSource,
     {"CsvIteratorParam"},
     "A CSV file, one instance per row: labels first, then data.",
     &MakeCsvDataset,
     nullptr,
     &CsvFiles});
[[maybe_unused]] const bool kBinaryRegistered = RegisterIteratorType(
    {"binary",
     IteratorKind::kSource,
     {"BinaryIteratorParam"},
     "umbra's binary tensor format, read with random access.",
     &MakeBinaryDataset,
     nullptr,
     &BinaryFiles});
[[maybe_unused]] const bool kThreadBufferRegistered = RegisterIteratorType(
    {"threadbuffer",
     IteratorKind::kWrapper,
     {"ThreadBufferParam"},
     "Reads the batches of the stage before on a background thread.",
     nullptr,
     &Wrap<ThreadBufferIterator, ThreadBufferParam>,
     nullptr});
[[maybe_unused]] const bool kMemoryBufferRegistered = RegisterIteratorType(
    {"membuffer",
     IteratorKind::kWrapper,
     {"MemoryBufferParam"},
     "Keeps the first max_nbatch batches of the stage before and gives them "
     "on every pass (cxxnet's).",
     nullptr,
     &Wrap<MemoryBufferIterator, MemoryBufferParam>,
     nullptr});
[[maybe_unused]] const bool kAttachTextRegistered = RegisterIteratorType(
    {"attachtxt",
     IteratorKind::kWrapper,
     {"AttachTextParam"},
     "Adds an extra input (batch,1,1,dim) read per instance index from a "
     "text file (cxxnet's).",
     nullptr,
     &Wrap<AttachTextIterator, AttachTextParam>,
     nullptr});

}  // namespace
}  // namespace train
}  // namespace umbra
