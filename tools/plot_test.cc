// plot: the chart's SVG is well-formed XML with one polyline per series,
// and the binary draws several runs on one chart.
#include <sys/stat.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tools/metrics_csv.h"
#include "tools/svg_chart.h"
#include "tools/tool_test_util.h"

namespace umbra {
namespace tools {
namespace {

struct Element {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::string text;  // the text right after the start tag
};

// A small XML reader for the SVG the chart writes: checks that tags nest
// and close, and returns every element with its attributes.
std::vector<Element> ParseXml(const std::string& xml) {
  std::vector<Element> elements;
  std::vector<std::string> open;
  size_t pos = 0;
  while ((pos = xml.find('<', pos)) != std::string::npos) {
    const size_t end = xml.find('>', pos);
    EXPECT_NE(end, std::string::npos) << "unterminated tag at " << pos;
    if (end == std::string::npos) break;
    std::string tag = xml.substr(pos + 1, end - pos - 1);
    pos = end + 1;
    if (tag[0] == '?') continue;
    if (tag[0] == '/') {
      EXPECT_FALSE(open.empty()) << "stray </" << tag << ">";
      if (open.empty()) continue;
      EXPECT_EQ(open.back(), tag.substr(1)) << "misnested tags";
      open.pop_back();
      continue;
    }
    const bool self_closing = tag.back() == '/';
    if (self_closing) tag.pop_back();
    Element element;
    const size_t space = tag.find(' ');
    element.name = tag.substr(0, space);
    size_t at = space;
    while (at != std::string::npos && at < tag.size()) {
      const size_t eq = tag.find("=\"", at);
      if (eq == std::string::npos) break;
      const size_t close = tag.find('"', eq + 2);
      EXPECT_NE(close, std::string::npos) << "unquoted attribute in " << tag;
      std::string key(absl::StripAsciiWhitespace(tag.substr(at, eq - at)));
      element.attributes[key] = tag.substr(eq + 2, close - eq - 2);
      at = close + 1;
    }
    element.text = xml.substr(pos, xml.find('<', pos) - pos);
    if (!self_closing) open.push_back(element.name);
    elements.push_back(std::move(element));
  }
  EXPECT_TRUE(open.empty())
      << "unclosed <" << (open.empty() ? "" : open.back()) << ">";
  return elements;
}

// data-label -> number of points, for every series polyline.
std::map<std::string, int> SeriesPoints(const std::vector<Element>& svg) {
  std::map<std::string, int> series;
  for (const Element& e : svg) {
    if (e.name != "polyline" || e.attributes.count("class") == 0 ||
        e.attributes.at("class") != "series") {
      continue;
    }
    const std::string points = e.attributes.at("points");
    series[e.attributes.at("data-label")] =
        points.empty()
            ? 0
            : static_cast<int>(
                  std::vector<std::string>(absl::StrSplit(points, ' ')).size());
  }
  return series;
}

std::string TextOf(const std::vector<Element>& svg, const std::string& cls) {
  for (const Element& e : svg) {
    if (e.attributes.count("class") && e.attributes.at("class") == cls) {
      return e.text;
    }
  }
  return "<none>";
}

TEST(SvgChartTest, SeriesAxesLegendAndTitle) {
  LineChart chart;
  chart.title = "loss & error";
  chart.x_label = "round";
  chart.y_label = "value";
  chart.series.push_back({"train<1>", {1, 2, 3}, {0.5, 0.25, 0.125}});
  chart.series.push_back({"test", {1, 2, 3}, {0.6, NAN, 0.2}});
  const std::vector<Element> svg = ParseXml(RenderLineChartSvg(chart));
  ASSERT_FALSE(svg.empty());
  EXPECT_EQ(svg[0].name, "svg");
  EXPECT_EQ(SeriesPoints(svg),
            (std::map<std::string, int>{{"train&lt;1&gt;", 3}, {"test", 2}}));
  EXPECT_EQ(TextOf(svg, "title"), "loss &amp; error");
  EXPECT_EQ(TextOf(svg, "x-label"), "round");
  EXPECT_EQ(TextOf(svg, "y-label"), "value");
  int legends = 0;
  for (const Element& e : svg)
    legends +=
        e.attributes.count("class") && e.attributes.at("class") == "legend";
  EXPECT_EQ(legends, 2);
}

TEST(SvgChartTest, IntegerTicksForRounds) {
  LineChart chart;
  chart.integer_x = true;
  chart.series.push_back({"a", {1, 2}, {0.5, 0.25}});
  std::vector<std::string> ticks;
  bool in_ticks = false;
  for (const Element& e : ParseXml(RenderLineChartSvg(chart))) {
    if (e.name == "g") {
      in_ticks =
          e.attributes.count("class") && e.attributes.at("class") == "ticks";
    }
    // Tick labels are the unclassed, centred texts of the ticks group.
    if (in_ticks && e.name == "text" && e.attributes.count("class") == 0 &&
        e.attributes.count("text-anchor") &&
        e.attributes.at("text-anchor") == "middle") {
      ticks.push_back(e.text);
    }
  }
  EXPECT_EQ(ticks, (std::vector<std::string>{"1", "2"}));
}

TEST(SvgChartTest, NiceTicks) {
  EXPECT_EQ(NiceTicks(0, 1, 5),
            (std::vector<double>{0, 0.2, 0.4, 0.6, 0.8, 1}));
  EXPECT_EQ(NiceTicks(1, 10, 8), (std::vector<double>{2, 4, 6, 8, 10}));
  EXPECT_EQ(NiceTicks(3, 3, 5), (std::vector<double>{3}));
}

TEST(MetricsCsvTest, ReadsTheTrainersFormat) {
  const MetricsTable table = ParseMetricsCsv(
      "round,elapsed_s,images_per_s,train-error,test-error\n"
      "1,3.0,1000.0,0.3,0.32\n2,6.0,1000.0,0.2,nan\n",
      "m.csv");
  EXPECT_EQ(table.MetricLabels(),
            (std::vector<std::string>{"train-error", "test-error"}));
  EXPECT_EQ(table.Column("round"), (std::vector<double>{1, 2}));
  EXPECT_THROW(table.Column("test-logloss"), std::runtime_error);
}

TEST(MetricsCsvTest, ErrorsNameTheLine) {
  try {
    ParseMetricsCsv("round,elapsed_s,images_per_s,x\n1,2,3\n", "m.csv");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "m.csv:2: expected 4 cells as in the header, got 3");
  }
  EXPECT_THROW(ParseMetricsCsv("a,b\n", "m.csv"), std::runtime_error);
  EXPECT_THROW(ParseMetricsCsv("round,x\n1,abc\n", "m.csv"),
               std::runtime_error);
}

TEST(PlotBinaryTest, TwoRunsOnOneChart) {
  const std::string header =
      "round,elapsed_s,images_per_s,train-error,test-error\n";
  mkdir(TempPath("mlp").c_str(), 0755);
  mkdir(TempPath("cnn").c_str(), 0755);
  WriteFileOrDie(TempPath("mlp/metrics.csv"),
                 header +
                     "1,3,1000,0.3,0.32\n2,6,1000,0.2,0.25\n"
                     "3,9,1000,0.15,0.2\n");
  WriteFileOrDie(TempPath("cnn/metrics.csv"),
                 header + "1,9,300,0.25,0.27\n2,18,300,0.12,0.15\n");
  const std::string svg_path = TempPath("runs.svg");
  const ToolRun run = RunToolBinary(
      "tools/plot", {TempPath("mlp/metrics.csv"), TempPath("cnn/metrics.csv"),
                     "--output=" + svg_path, "--no_png"});
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, absl::StrCat("wrote ", svg_path, " (4 series)\n"));
  const std::vector<Element> svg = ParseXml(ReadFileOrDie(svg_path));
  EXPECT_EQ(SeriesPoints(svg),
            (std::map<std::string, int>{{"mlp: train-error", 3},
                                        {"mlp: test-error", 3},
                                        {"cnn: train-error", 2},
                                        {"cnn: test-error", 2}}));
  EXPECT_EQ(TextOf(svg, "title"), "mlp vs cnn: metrics");
}

TEST(PlotBinaryTest, Errors) {
  const ToolRun none = RunToolBinary("tools/plot", {});
  EXPECT_EQ(none.status, 2);
  EXPECT_NE(none.err.find("give at least one metrics.csv file"),
            std::string::npos);
  const ToolRun missing = RunToolBinary("tools/plot", {"nope/metrics.csv"});
  EXPECT_EQ(missing.status, 1);
  EXPECT_EQ(missing.err,
            "error: cannot open metrics file 'nope/metrics.csv': No such "
            "file or directory\n");
  const ToolRun help = RunToolBinary("tools/plot", {"--help"});
  EXPECT_EQ(help.status, 0);
  EXPECT_EQ(help.out.rfind("usage: plot METRICS_CSV", 0), 0u);
}

}  // namespace
}  // namespace tools
}  // namespace umbra
