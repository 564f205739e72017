#include "train/round_log.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "train/net/checkpoint.h"

namespace umbra {
namespace train {

std::string FormatRoundLine(const RoundFigures& figures) {
  std::string line =
      absl::StrFormat("[%d]\telapsed:%.1f\timages/s:%.0f", figures.round,
                      figures.elapsed_seconds, figures.images_per_second);
  if (figures.ranks > 1) {
    absl::StrAppendFormat(&line, "\tranks:%d\tcomm_wait:%.3f", figures.ranks,
                          figures.comm_wait_share);
  }
  if (figures.bad_images > 0) {
    absl::StrAppendFormat(&line, "\tbad-images:%d", figures.bad_images);
  }
  for (const auto& metric : figures.metrics) {
    absl::StrAppend(&line, "\t", metric.first, ":",
                    absl::StrFormat("%g", metric.second));
  }
  return line;
}

std::string FormatProgressLine(int round, long batches, double elapsed_seconds,
                               double images_per_second) {
  return absl::StrFormat("round %8d:[%8d] %d sec elapsed, %.0f images/s", round,
                         batches, static_cast<long>(elapsed_seconds),
                         images_per_second);
}

void AppendMetricsCsv(const std::string& path, const RoundFigures& figures) {
  bool fresh = true;
  {
    std::ifstream existing(path);
    fresh = !existing || existing.peek() == std::ifstream::traits_type::eof();
  }
  std::ofstream out(path, std::ios::app);
  if (!out) {
    throw std::runtime_error(absl::StrCat("cannot append to metrics file '",
                                          path, "': ", std::strerror(errno)));
  }
  if (fresh) {
    out << "round,elapsed_s,images_per_s";
    for (const auto& metric : figures.metrics) out << "," << metric.first;
    out << "\n";
  }
  out << absl::StrFormat("%d,%.3f,%.1f", figures.round, figures.elapsed_seconds,
                         figures.images_per_second);
  for (const auto& metric : figures.metrics) {
    out << absl::StrFormat(",%.6g", metric.second);
  }
  out << "\n";
  if (!out) {
    throw std::runtime_error(
        absl::StrCat("cannot append to metrics file '", path, "'"));
  }
}

int DropMetricsAfter(const std::string& path, int round) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return 0;
  const std::string text((std::istreambuf_iterator<char>(in)),
                         std::istreambuf_iterator<char>());
  in.close();
  std::vector<absl::string_view> lines = absl::StrSplit(text, '\n');
  // What follows the last line end: empty, or a line cut short.
  const bool torn = !lines.back().empty();
  lines.pop_back();
  std::string kept;
  int kept_rows = 0, dropped = torn && !lines.empty() ? 1 : 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    int line_round = 0;
    const absl::string_view first = lines[i].substr(0, lines[i].find(','));
    if (i > 0 && absl::SimpleAtoi(first, &line_round) && line_round > round) {
      ++dropped;
      continue;
    }
    absl::StrAppend(&kept, lines[i], "\n");
    if (i > 0) ++kept_rows;
  }
  if (dropped == 0 && !torn) return 0;
  if (kept_rows == 0) {
    // The next row writes the header again, for this run's metrics.
    if (std::remove(path.c_str()) != 0) {
      throw std::runtime_error(absl::StrCat("cannot remove metrics file '",
                                            path, "': ", std::strerror(errno)));
    }
    return dropped;
  }
  ReplaceFile(path, kept, "metrics file");
  return dropped;
}

ProgressBar::ProgressBar(int round, long total, bool shown)
    : enabled_(shown && isatty(STDERR_FILENO) == 1),
      round_(round),
      total_(total),
      last_(std::chrono::steady_clock::now()) {}

void ProgressBar::Update(long done) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && done < total_ && now - last_ < std::chrono::milliseconds(200)) {
    return;
  }
  last_ = now;
  if (total_ <= 0) {
    std::fprintf(stderr, "\r[%d] %ld batches", round_, done);
    std::fflush(stderr);
    drawn_ = true;
    return;
  }
  if (done > total_) done = total_;
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(kWidth * done / total_);
  std::fprintf(stderr, "\r[%d] |%s%s| %ld/%ld batches", round_,
               std::string(filled, '#').c_str(),
               std::string(kWidth - filled, ' ').c_str(), done, total_);
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::Finish() {
  if (!drawn_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace train
}  // namespace umbra
