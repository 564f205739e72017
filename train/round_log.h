// What the trainer prints and logs about each round: the one-line summary
// in cxxnet's `SET-METRIC:VALUE` form, the progress bar (on a terminal
// only), and the rows appended to `model_dir/metrics.csv`.
//
// Example:
//
//   RoundFigures figures{3, 12.5, 4821.0, {{"train-error", 0.1021},
//                                           {"test-error", 0.1187}}};
//   std::cout << FormatRoundLine(figures) << "\n";
//   // [3] elapsed:12.5 images/s:4821 train-error:0.1021 test-error:0.1187
//   // (tab-separated)
//   AppendMetricsCsv("models/metrics.csv", figures);
//
//   ProgressBar bar(3, num_batches);   // draws on stderr if it is a tty
//   bar.Update(batch);  ...  bar.Finish();
#ifndef UMBRA_TRAIN_ROUND_LOG_H_
#define UMBRA_TRAIN_ROUND_LOG_H_

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace umbra {
namespace train {

struct RoundFigures {
  // 1-based: the number of rounds completed.
  int round = 0;
  // Seconds since the run started.
  double elapsed_seconds = 0.0;
  // Training instances per second in this round's training pass (over
  // every rank).
  double images_per_second = 0.0;
  // The processes of a data-parallel run, and the share of the training
  // pass they spent waiting for each other's gradients (their mean).
  int ranks = 1;
  double comm_wait_share = 0.0;
  // Pictures the training data replaced so far (skip_bad_images), over
  // every rank.
  long bad_images = 0;
  // ("train-error", 0.1021), ... in print order.
  std::vector<std::pair<std::string, double>> metrics;
};

// "[3]\telapsed:12.5\timages/s:4821\ttrain-error:0.1021\t...": every field
// NAME:NUMBER (elapsed in seconds), so scripts that read cxxnet's logs can
// parse it; metric values with six significant digits, as cxxnet printed.
// With several ranks, "ranks:N\tcomm_wait:0.042" follow images/s, and
// "bad-images:N" when the training data skipped bad pictures.
std::string FormatRoundLine(const RoundFigures& figures);

// Appends one row to the CSV file at `path`, first writing the header
// (round,elapsed_s,images_per_s,<metric labels>) when the file is new or
// empty. Throws std::runtime_error when it cannot write.
void AppendMetricsCsv(const std::string& path, const RoundFigures& figures);

// Removes the rows of rounds after `round` from the metrics CSV file at
// `path` (rounds a resumed run trains again), and the whole file when no row
// is left, so that its next row writes a header for the new run. A last line
// without its line end (a run killed while appending it) goes too: it is the
// row of a round after the newest checkpoint. Returns the rows removed; 0
// when there is no file. Throws std::runtime_error when it cannot rewrite
// it.
int DropMetricsAfter(const std::string& path, int round);

// cxxnet's progress line (print_step), with the round numbered as the
// round lines number it and the training speed added:
// "round        3:[     100] 12 sec elapsed, 5331 images/s".
std::string FormatProgressLine(int round, long batches, double elapsed_seconds,
                               double images_per_second);

// A progress bar on stderr, drawn only when stderr is a terminal and at
// most a few times a second.
class ProgressBar {
 public:
  // `total` batches expected; 0 when not known (a count is shown). Never
  // drawn unless `shown` (the ranks of a data-parallel run but rank 0).
  ProgressBar(int round, long total, bool shown = true);
  ~ProgressBar() { Finish(); }
  // `done` batches of `total` are finished.
  void Update(long done);
  // Erases the bar.
  void Finish();

 private:
  bool enabled_;
  bool drawn_ = false;
  int round_;
  long total_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_ROUND_LOG_H_
