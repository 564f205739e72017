// im2rec: packs the images that a .lst names into a RecordIO pack of MXNet
// image records with its .idx, as MXNet's im2rec does, optionally resized
// and re-encoded, on several threads.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_format.h"
#include "tools/cli.h"
#include "tools/image_pack.h"
#include "train/data/data_error.h"
#include "train/image/image.h"
#include "train/image/image_codec.h"
#include "train/image/image_list.h"
#include "train/image/image_sources.h"
#include "train/image/picture_decoder.h"
#include "train/image/worker_pool.h"

namespace umbra {
namespace tools {
namespace {

struct PackSettings {
  int resize = 0;  // shorter side; 0: keep
  int channels = 3;
  bool pass_through = false;
  bool skip_bad = false;
  ImageEncoding encoding;
};

// What one thread owns.
struct Scratch {
  std::string bytes;
  std::vector<float> labels;
  train::PictureDecoder decoder;
};

// The record bytes of list entry `index`: the file as it is, or decoded,
// resized and encoded again.
void PrepareImage(const PackSettings& settings,
                  const train::ImageListSource& list, index_t index,
                  Scratch* scratch, std::string* record_image) {
  list.Read(index, &scratch->bytes, scratch->labels.data());
  if (settings.pass_through) {
    if (train::DetectImageFormat(scratch->bytes) ==
        train::ImageFormat::kUnknown) {
      throw train::DataError("not a JPEG or PNG picture");
    }
    *record_image = scratch->bytes;
    return;
  }
  *record_image =
      EncodeImage(scratch->decoder.Decode(scratch->bytes, settings.channels,
                                          settings.resize),
                  settings.encoding);
}

// "\rim2rec: 1200/5000 images (24%), 830 images/s" on a terminal.
void ShowProgress(std::size_t done, std::size_t total, double seconds) {
  if (!isatty(STDERR_FILENO)) return;
  std::cerr << absl::StrFormat("\rim2rec: %d/%d images (%d%%), %.0f images/s",
                               done, total, 100 * done / total,
                               done / std::max(seconds, 1e-9))
            << std::flush;
}

int Pack(const CommandLine& cli) {
  const std::vector<std::string>& args = cli.positional();
  if (args.size() != 3) throw UsageError("give LIST ROOT OUT.rec");
  PackSettings settings;
  settings.resize = cli.GetInt("resize", 0, 0);
  settings.channels = cli.GetInt("color", 1, 0) == 0 ? 1 : 3;
  settings.pass_through = cli.Has("pass_through");
  settings.skip_bad = cli.Has("skip_bad");
  settings.encoding.codec = ParseImageCodec(cli.Get("encoding", "jpg"));
  settings.encoding.quality = std::min(cli.GetInt("quality", 95, 1), 100);
  if (settings.pass_through && settings.resize > 0) {
    throw UsageError("--pass_through stores files unchanged: no --resize");
  }
  const int threads = cli.GetInt(
      "threads", std::max(1u, std::thread::hardware_concurrency()), 1);
  const train::ImageListSource list(args[0], args[1],
                                    cli.GetInt("label_width", 1, 1));
  const std::vector<train::ImageListEntry>& entries = list.entries();
  ImagePackWriter pack(args[2]);

  train::WorkerPool pool(threads);
  std::vector<std::unique_ptr<Scratch>> scratch;
  for (int i = 0; i < pool.size(); ++i) {
    scratch.push_back(std::make_unique<Scratch>());
    scratch.back()->labels.resize(list.label_width());
  }
  const std::size_t chunk = 64 * pool.size();
  std::vector<std::string> images(chunk), problems(chunk);
  std::size_t skipped = 0;
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t first = 0; first < entries.size(); first += chunk) {
    const std::size_t count = std::min(chunk, entries.size() - first);
    pool.Run(static_cast<int>(count), [&](int task, int worker) {
      const index_t index = first + task;
      problems[task].clear();
      try {
        PrepareImage(settings, list, index, scratch[worker].get(),
                     &images[task]);
      } catch (const train::DataError& e) {
        problems[task] = list.Where(index) + ": " + e.what();
        if (!settings.skip_bad) {
          throw train::DataError(problems[task] +
                                 " (--skip_bad skips bad images)");
        }
      }
    });
    for (std::size_t task = 0; task < count; ++task) {
      const train::ImageListEntry& entry = entries[first + task];
      if (!problems[task].empty()) {
        std::cerr << (isatty(STDERR_FILENO) ? "\r" : "") << "im2rec: skipped "
                  << problems[task] << "\n";
        ++skipped;
        continue;
      }
      pack.Add(entry.index, entry.labels, images[task]);
    }
    const std::chrono::duration<double> elapsed =
        std::chrono::steady_clock::now() - start;
    ShowProgress(first + count, entries.size(), elapsed.count());
  }
  pack.Finish();
  const std::chrono::duration<double> elapsed =
      std::chrono::steady_clock::now() - start;
  std::cerr << (isatty(STDERR_FILENO) ? "\n" : "")
            << absl::StrFormat(
                   "im2rec: packed %d images into '%s' (%.1f MB) and '%s' in "
                   "%.1f s%s\n",
                   pack.count(), pack.pack_path(),
                   std::filesystem::file_size(pack.pack_path()) / 1e6,
                   pack.index_path(), elapsed.count(),
                   skipped ? absl::StrFormat(", %d bad images skipped", skipped)
                           : "");
  return 0;
}

}  // namespace
}  // namespace tools
}  // namespace umbra

int main(int argc, char** argv) {
  umbra::tools::CommandLine cli(
      "im2rec LIST ROOT OUT.rec [flags]",
      "Packs the JPEG/PNG images that LIST (a .lst: index<TAB>label...<TAB>"
      "path) names,\npaths under ROOT, into the RecordIO pack OUT.rec and its "
      "index OUT.idx, in\nMXNet's format (iter = imgrec reads them, so does "
      "MXNet). Records keep the\nlist's order, index and labels. Existing "
      "files are never overwritten.\n"
      "Example: bazel run -c opt //tools:im2rec -- train.lst photos/ "
      "train.rec --resize=256",
      {{"resize", "N", "shorter side resized to N pixels (default 0: keep)"},
       {"encoding", "jpg|png", "how images are stored (default jpg)"},
       {"quality", "Q", "JPEG quality 1..100 (default 95)"},
       {"color", "1|0", "1: RGB (default), 0: grey"},
       {"label_width", "N", "labels on each list line (default 1)"},
       {"threads", "N", "decode and encode threads (default: every core)"},
       {"pass_through", "",
        "store each file's bytes unchanged (no decode, resize or encode)"},
       {"skip_bad", "", "skip unreadable or corrupt images, and count them"}});
  return umbra::tools::RunTool(argc, argv, &cli,
                               [&] { return umbra::tools::Pack(cli); });
}
