// The registry of iterator types: each type registers itself once by name
// (in an alwayslink library), and the chain builder creates iterators by the
// name written after `iter =`.
//
// Two kinds of type:
//   - sources read a data set (mnist, csv, binary): they make a Dataset,
//     which becomes a BatchIterator, so every source also takes the keys of
//     BatchIteratorParam (batch_size, shuffle, round_batch, seed, ...) and
//     AugmentIteratorParam (input_shape, rand_crop, rand_mirror, divideby,
//     mean_value, ...);
//   - wrappers (threadbuffer) take the iterator of the stage before.
//
// Example:
//
//   // registered_iterators.cc
//   RegisterIteratorType({"mnist", IteratorKind::kSource,
//   {"MnistIteratorParam"},
//                         "MNIST IDX files.", &MakeMnistDataset, nullptr});
//
//   IteratorRegistry::List();   // {"binary", "csv", "mnist", "threadbuffer"}
//   std::unique_ptr<DataIterator> it = CreateIterator(
//       "mnist", {{"path_img", "..."}, {"path_label", "..."},
//                 {"batch_size", "100"}}, nullptr);
//   it = CreateIterator("threadbuffer", {}, std::move(it));
//
// An unknown type is a DataError "unknown iterator type 'mnsit'; did you
// mean 'mnist'? Known types: binary, csv, mnist, threadbuffer".
#ifndef UMBRA_TRAIN_DATA_ITERATOR_REGISTRY_H_
#define UMBRA_TRAIN_DATA_ITERATOR_REGISTRY_H_

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "param/param.h"
#include "param/type_registry.h"
#include "train/data/batch_iterator.h"
#include "train/data/data_batch.h"
#include "train/data/data_error.h"
#include "train/data/dataset.h"

namespace umbra {
namespace train {

enum class IteratorKind { kSource, kWrapper };

// Makes a source's data set from the stage's key/value pairs (all of them:
// the function picks its own keys) and the common batch settings.
using DatasetFactory = std::function<std::unique_ptr<Dataset>(
    const ParamKwargs& kwargs, const BatchIteratorParam& batch,
    const AugmentIteratorParam& augment)>;
// Wraps `base` with the stage's key/value pairs.
using WrapperFactory = std::function<std::unique_ptr<DataIterator>(
    std::unique_ptr<DataIterator> base, const ParamKwargs& kwargs)>;
// The files a source stage will read, as (key, path) pairs, from its
// key/value pairs. Throws ParamError for a bad value.
using InputFiles =
    std::function<std::vector<std::pair<std::string, std::string>>(
        const ParamKwargs& kwargs)>;

// An iterator type's entry in the registry.
struct IteratorTypeInfo {
  // What TypeRegistry needs to name the kind in messages.
  static constexpr char kKind[] = "iterator type";
  static constexpr char kKnownAs[] = "types";
  static constexpr char kLibrary[] = "//train/data";
  using Error = DataError;

  // The name after `iter =`.
  std::string type;
  IteratorKind kind = IteratorKind::kSource;
  // The registered parameter structs of the type's own keys; sources get
  // BatchIteratorParam and AugmentIteratorParam added.
  std::vector<std::string> param_structs;
  std::string description;
  // Exactly one is set, as `kind` says.
  DatasetFactory make_dataset;
  WrapperFactory wrap;
  // A source's input files, which the trainer checks open before it reads
  // any data (CheckIteratorFiles); unset when there is none to check.
  InputFiles input_files;

  // What is wrong with the entry ("" when nothing): a source needs
  // make_dataset, a wrapper wrap, not both.
  std::string Problem() const;
};

using IteratorRegistry = TypeRegistry<IteratorTypeInfo>;

// Adds `info` to IteratorRegistry, a source with BatchIteratorParam and
// AugmentIteratorParam added to its structs; returns true (for static
// registration). A second type of the same name, or a malformed entry,
// aborts the program with a message (a build mistake, found at start-up).
bool RegisterIteratorType(IteratorTypeInfo info);

// Every key the type accepts (fields and aliases of its structs), sorted.
std::vector<std::string> IteratorTypeKeys(absl::string_view type);

// A new iterator of `type` from `kwargs`; `base` is the stage before for a
// wrapper and must be null for a source, which gives `part` of every batch
// (BatchPart). Throws DataError (unknown type or key, a source given a base,
// a wrapper without one, bad data) or ParamError (a bad value).
std::unique_ptr<DataIterator> CreateIterator(absl::string_view type,
                                             const ParamKwargs& kwargs,
                                             std::unique_ptr<DataIterator> base,
                                             BatchPart part = {});

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_DATA_ITERATOR_REGISTRY_H_
