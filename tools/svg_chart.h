// A line chart as a standalone SVG document: several named series of (x, y)
// points on shared axes with ticks, grid, axis labels, a title and a
// legend. `plot` draws training curves with it.
//
// Example:
//
//   LineChart chart;
//   chart.title = "fashion_mnist_mlp";
//   chart.x_label = "round";
//   chart.y_label = "value";
//   chart.series.push_back({"train-error", {1, 2, 3}, {0.2, 0.15, 0.12}});
//   std::string svg = RenderLineChartSvg(chart);
//
// Contracts: each series is one <polyline class="series"> with a
// data-label attribute holding its label (XML-escaped) and one point per
// finite (x, y), plus a <circle> per point; non-finite points are left
// out. The axes span every finite point; a chart without any gets unit
// axes. Text is XML-escaped. The output is deterministic.
#ifndef UMBRA_TOOLS_SVG_CHART_H_
#define UMBRA_TOOLS_SVG_CHART_H_

#include <string>
#include <vector>

namespace umbra {
namespace tools {

struct ChartSeries {
  std::string label;
  std::vector<double> x;
  std::vector<double> y;
};

struct LineChart {
  std::string title;
  std::string x_label;
  std::string y_label;
  std::vector<ChartSeries> series;
  // Ticks on the x axis only at whole numbers (rounds).
  bool integer_x = false;
  int width = 900;
  int height = 500;
};

std::string RenderLineChartSvg(const LineChart& chart);

// Tick positions covering [low, high] at a 1, 2 or 5 times 10^k step,
// about `count` of them.
std::vector<double> NiceTicks(double low, double high, int count);

// `text` with &, <, >, " and ' escaped for XML.
std::string XmlEscape(const std::string& text);

}  // namespace tools
}  // namespace umbra

#endif  // UMBRA_TOOLS_SVG_CHART_H_
