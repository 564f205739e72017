// plot: training curves from metrics.csv files as an SVG (and a PNG when a
// converter is installed). See the help screen for usage.
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "tools/cli.h"
#include "tools/metrics_csv.h"
#include "tools/svg_chart.h"
#include "tools/svg_to_png.h"

namespace umbra {
namespace tools {
namespace {

// "models/mlp/metrics.csv" -> "mlp": the run's directory.
std::string RunName(const std::string& path) {
  std::vector<std::string> parts = absl::StrSplit(path, '/', absl::SkipEmpty());
  if (parts.size() >= 2) return parts[parts.size() - 2];
  return path;
}

std::vector<std::string> SplitList(const std::string& text) {
  return absl::StrSplit(text, ',', absl::SkipEmpty());
}

int Plot(const CommandLine& cli) {
  const std::vector<std::string>& paths = cli.positional();
  if (paths.empty()) throw UsageError("give at least one metrics.csv file");
  std::vector<std::string> runs = SplitList(cli.Get("labels"));
  if (!runs.empty() && runs.size() != paths.size()) {
    throw UsageError(absl::StrCat("--labels names ", runs.size(), " runs but ",
                                  paths.size(), " files were given"));
  }
  if (runs.empty()) {
    for (const std::string& path : paths) runs.push_back(RunName(path));
    // Runs of one name are told apart by their paths.
    if (std::set<std::string>(runs.begin(), runs.end()).size() != runs.size()) {
      runs = paths;
    }
  }
  const std::vector<std::string> wanted = SplitList(cli.Get("metrics"));

  LineChart chart;
  chart.x_label = "round";
  chart.integer_x = true;
  chart.y_label = wanted.size() == 1 ? wanted[0] : "metric value";
  for (size_t r = 0; r < paths.size(); ++r) {
    const MetricsTable table = ReadMetricsCsv(paths[r]);
    const std::vector<double> rounds = table.Column("round");
    const std::vector<std::string> metrics =
        wanted.empty() ? table.MetricLabels() : wanted;
    for (const std::string& metric : metrics) {
      ChartSeries series;
      series.label =
          paths.size() > 1 ? absl::StrCat(runs[r], ": ", metric) : metric;
      series.x = rounds;
      series.y = table.Column(metric);  // throws, naming the columns
      chart.series.push_back(std::move(series));
    }
  }
  chart.title = cli.Has("title") ? cli.Get("title")
                                 : absl::StrJoin(runs, " vs ") + ": metrics";

  const std::string svg_path = cli.Get("output", "metrics.svg");
  if (!absl::EndsWith(svg_path, ".svg")) {
    throw UsageError(
        absl::StrCat("--output must end in .svg, got '", svg_path, "'"));
  }
  {
    std::ofstream out(svg_path, std::ios::binary);
    out << RenderLineChartSvg(chart);
    if (!out) throw std::runtime_error("cannot write '" + svg_path + "'");
  }
  std::cout << "wrote " << svg_path << " (" << chart.series.size()
            << " series)\n";
  if (!cli.Has("no_png")) {
    const std::string png_path =
        std::string(absl::StripSuffix(svg_path, ".svg")) + ".png";
    try {
      if (std::optional<std::string> tool = SvgToPng(svg_path, png_path)) {
        std::cout << "wrote " << png_path << " (with " << *tool << ")\n";
      } else {
        std::cout << "no PNG: no SVG converter found (install librsvg2-bin "
                     "for rsvg-convert)\n";
      }
    } catch (const std::runtime_error& e) {
      // The SVG is written; a broken converter only costs the PNG.
      std::cerr << "warning: no PNG: " << e.what() << "\n";
    }
  }
  return 0;
}

}  // namespace
}  // namespace tools
}  // namespace umbra

int main(int argc, char** argv) {
  umbra::tools::CommandLine cli(
      "plot METRICS_CSV [METRICS_CSV ...] [--output=FILE.svg] "
      "[--metrics=A,B] [--labels=R1,R2] [--title=TEXT] [--no_png]",
      "Draws the metrics per round of one or more trainer runs (their\n"
      "model_dir/metrics.csv) on one chart, as an SVG and, when rsvg-convert,\n"
      "ImageMagick or inkscape is installed, a PNG beside it.\n"
      "Example: bazel run //tools:plot -- models/a/metrics.csv "
      "models/b/metrics.csv --output=ab.svg",
      {{"output", "FILE.svg", "the SVG to write (default metrics.svg)"},
       {"metrics", "A,B", "the columns to draw (default: every metric)"},
       {"labels", "R1,R2", "a name per run (default: each file's directory)"},
       {"title", "TEXT", "the chart's title"},
       {"no_png", "", "write only the SVG"}});
  return umbra::tools::RunTool(argc, argv, &cli,
                               [&] { return umbra::tools::Plot(cli); });
}
