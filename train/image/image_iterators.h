// The settings of the image iterator types; the types themselves are
// registered in registered_image_iterators.cc.
//
//   iter = img      a .lst list of JPEG/PNG files     ImgIteratorParam
//   iter = imgrec   a RecordIO pack of MXNet records  ImgRecIteratorParam
//   iter = imgbin   cxxnet's image pages (+ .lst)     ImgBinIteratorParam
//                   (imginst: the same, cxxnet's other reader of them)
//   iter = cifar    CIFAR-10/100 binary files         CifarIteratorParam
//
// img and imgrec also take ImageDecodeParam and ImageAugmentParam keys (the
// decode threads, cxxnet's augmenter); every source takes
// BatchIteratorParam and AugmentIteratorParam keys (input_shape, rand_crop,
// rand_mirror, divideby, scale, mean_value).
//
// Example (a config block):
//
//   data = train
//   iter = imgrec
//     image_rec = "train.rec"
//     input_shape = 3,224,224
//     rand_crop = 1
//     rand_mirror = 1
//     mean_r = 123.68
//     mean_g = 116.28
//     mean_b = 103.53
//     decode_threads = 4
//   iter = threadbuffer
//   iter = end
#ifndef UMBRA_TRAIN_IMAGE_IMAGE_ITERATORS_H_
#define UMBRA_TRAIN_IMAGE_IMAGE_ITERATORS_H_

#include <string>

#include "param/param.h"

namespace umbra {
namespace train {

struct ImgIteratorParam : public Parameter<ImgIteratorParam> {
  std::string image_list;
  std::string image_root;

  UMBRA_DECLARE_PARAMETER(ImgIteratorParam) {
    UMBRA_DECLARE_FIELD(image_list)
        .describe(
            "List file (.lst): one image per line, 'index<TAB>label[<TAB>"
            "label...]<TAB>path', label_width labels.");
    UMBRA_DECLARE_FIELD(image_root)
        .set_default("")
        .describe("Folder the list's relative paths start from.");
    UMBRA_DECLARE_ALIAS(image_list, path_imglist);
    UMBRA_DECLARE_ALIAS(image_root, path_root);
  }
};

struct ImgRecIteratorParam : public Parameter<ImgRecIteratorParam> {
  std::string image_rec;
  std::string image_rec_index;
  std::string image_list;

  UMBRA_DECLARE_PARAMETER(ImgRecIteratorParam) {
    UMBRA_DECLARE_FIELD(image_rec).describe(
        "RecordIO pack of MXNet image records (as MXNet's im2rec or "
        "//tools:im2rec write them).");
    UMBRA_DECLARE_FIELD(image_rec_index)
        .set_default("")
        .describe(
            "The pack's index (.idx): its records in this order. Empty: the "
            ".idx beside the pack (train.rec: train.idx) when there is one, "
            "else the pack is scanned.");
    UMBRA_DECLARE_FIELD(image_list)
        .set_default("")
        .describe(
            "A .lst list whose labels replace the records' own, matched by "
            "the record's id to the list's index (cxxnet's imgrec); empty: "
            "the records' labels.");
    UMBRA_DECLARE_ALIAS(image_rec, path_imgrec);
    // cxxnet's kaggle_bowl example wrote image_bin in an imgrec block.
    UMBRA_DECLARE_ALIAS(image_rec, image_bin);
    UMBRA_DECLARE_ALIAS(image_rec_index, path_imgidx);
  }
};

// imgbin and imginst: cxxnet's image pages. image_list and image_bin may
// each be written several times in a block, one pair per part, in order
// (as cxxnet reads them); the fields hold the last.
struct ImgBinIteratorParam : public Parameter<ImgBinIteratorParam> {
  std::string image_list;
  std::string image_bin;
  std::string image_conf_prefix;
  std::string image_conf_ids;

  UMBRA_DECLARE_PARAMETER(ImgBinIteratorParam) {
    UMBRA_DECLARE_FIELD(image_list)
        .set_default("")
        .describe(
            "The .lst of a .bin: one line per picture, in the pages' order "
            "(index, label_width labels, path). Several image_list and "
            "image_bin lines: several parts, read in order.");
    UMBRA_DECLARE_FIELD(image_bin).set_default("").describe(
        "cxxnet's image pages (im2bin's .bin) of image_list.");
    UMBRA_DECLARE_FIELD(image_conf_prefix)
        .set_default("")
        .describe(
            "Instead of image_list and image_bin: the parts PREFIX.lst and "
            "PREFIX.bin with each id of image_conf_ids put into the prefix's "
            "printf conversion (\"tr_%d\").");
    UMBRA_DECLARE_FIELD(image_conf_ids)
        .set_default("")
        .describe("The ids of image_conf_prefix, a range FIRST-LAST (0-7).");
  }
};

struct ImageDecodeParam : public Parameter<ImageDecodeParam> {
  int resize;
  int decode_threads;
  int decoded_cache_mb;
  bool skip_bad_images;
  std::string mean_img;

  UMBRA_DECLARE_PARAMETER(ImageDecodeParam) {
    UMBRA_DECLARE_FIELD(resize).set_default(0).set_lower_bound(0).describe(
        "Resize each picture so that its shorter side has this many pixels "
        "before the augmenter (a much larger JPEG is decoded at a smaller "
        "scale first); 0 keeps its size.");
    UMBRA_DECLARE_FIELD(decode_threads)
        .set_default(0)
        .set_lower_bound(0)
        .describe(
            "Threads that decode and augment each batch (the reading thread "
            "among them); 0: the cores the trainer's own threads leave, at "
            "least 1.");
    UMBRA_DECLARE_FIELD(decoded_cache_mb)
        .set_default(2048)
        .set_lower_bound(0)
        .describe(
            "When every decoded picture fits in this many MiB, decode them "
            "all once, on every core, as the iterator starts, and augment "
            "from memory after (the batches are the same); 0: decode each "
            "picture every time it is read.");
    UMBRA_DECLARE_FIELD(skip_bad_images)
        .set_default(false)
        .describe(
            "Replace a picture that cannot be read or decoded by the next "
            "good one of the list and count it, instead of stopping.");
    UMBRA_DECLARE_FIELD(mean_img).set_default("").describe(
        "File of the mean image (input_shape, before scaling), subtracted "
        "from every instance; made from the centre crops of the whole "
        "data on the first run (its folder too) and read after, in "
        "umbra's format or cxxnet's (cxxnet's image_mean).");
    UMBRA_DECLARE_ALIAS(mean_img, image_mean);
  }
};

struct CifarIteratorParam : public Parameter<CifarIteratorParam> {
  std::string path_data;
  int cifar_format;

  UMBRA_DECLARE_PARAMETER(CifarIteratorParam) {
    UMBRA_DECLARE_FIELD(path_data).describe(
        "CIFAR binary files, comma-separated, read in order "
        "(data_batch_1.bin,...; plain or gzip).");
    UMBRA_DECLARE_FIELD(cifar_format)
        .set_default(0)
        .add_enum("cifar10", 0)
        .add_enum("cifar100", 1)
        .add_enum("cifar100_coarse", 2)
        .add_enum("cifar100_both", 3)
        .describe(
            "cifar10 (1 label), cifar100 (the fine label), cifar100_coarse "
            "(the coarse label) or cifar100_both (2 labels: coarse, fine; "
            "label_width = 2).");
  }
};

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_IMAGE_IMAGE_ITERATORS_H_
