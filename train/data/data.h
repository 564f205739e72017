// The data iterators of the trainer: sources that read MNIST IDX files, CSV
// files and umbra's binary tensor format, batching with cxxnet's
// round_batch, scaling and image augmentation, a background-thread buffer,
// and the registry and chain builder that turn a config block into an
// iterator.
//
//   DataBatch, DataIterator                          data_batch.h
//   DataError                                        data_error.h
//   CreateIteratorChain, AddIteratorSchema           iterator_chain.h
//   RegisterIteratorType, CreateIterator,
//   IteratorRegistry                                 iterator_registry.h
//   Dataset, MemoryDataset                           dataset.h
//   BatchIterator, BatchIteratorParam                batch_iterator.h
//   InstanceTransform, AugmentIteratorParam          instance_transform.h
//   ThreadBufferIterator, ThreadBufferParam          thread_buffer_iterator.h
//   Mnist/Csv/BinaryIteratorParam                    source_iterators.h
//   LoadMnist, ParseIdx                              idx_file.h
//   LoadCsv                                          csv_file.h
//   BinaryDatasetWriter, OpenBinaryDataset           binary_format.h
//
// Example:
//
//   #include "train/data/data.h"
//
//   TrainConfig config = LoadTrainConfig("mnist.conf");
//   std::unique_ptr<DataIterator> it =
//       CreateIteratorChain(config, *config.TrainIterator());
//   it->BeforeFirst();
//   while (it->Next()) {
//     const DataBatch& batch = it->Value();  // data (100,1,28,28), label
//   }
#ifndef UMBRA_TRAIN_DATA_DATA_H_
#define UMBRA_TRAIN_DATA_DATA_H_

#include "train/data/batch_iterator.h"
#include "train/data/binary_format.h"
#include "train/data/csv_file.h"
#include "train/data/data_batch.h"
#include "train/data/data_error.h"
#include "train/data/dataset.h"
#include "train/data/idx_file.h"
#include "train/data/instance_transform.h"
#include "train/data/iterator_chain.h"
#include "train/data/iterator_registry.h"
#include "train/data/source_iterators.h"
#include "train/data/thread_buffer_iterator.h"

#endif  // UMBRA_TRAIN_DATA_DATA_H_
