#include "tools/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace umbra {
namespace tools {
namespace {

// Distinguishable colours (Tableau 10).
constexpr const char* kColors[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
                                   "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
                                   "#9c755f", "#bab0ac"};
constexpr int kNumColors = sizeof(kColors) / sizeof(kColors[0]);

constexpr int kMarginLeft = 80;
constexpr int kMarginRight = 230;
constexpr int kMarginTop = 50;
constexpr int kMarginBottom = 60;

struct Range {
  double low = std::numeric_limits<double>::infinity();
  double high = -std::numeric_limits<double>::infinity();
  void Add(double v) {
    low = std::min(low, v);
    high = std::max(high, v);
  }
  // Makes an empty or zero-width range drawable.
  void Settle() {
    if (!(low <= high)) {
      low = 0.0;
      high = 1.0;
    } else if (low == high) {
      const double pad = low == 0.0 ? 1.0 : std::fabs(low) * 0.1;
      low -= pad;
      high += pad;
    }
  }
};

// Six significant digits without trailing zeros: "0.25", "1e-05", "300".
std::string TickText(double value, double step) {
  if (std::fabs(value) < step * 1e-9) value = 0.0;
  return absl::StrFormat("%g", value);
}

}  // namespace

std::string XmlEscape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::vector<double> NiceTicks(double low, double high, int count) {
  const double span = high - low;
  if (!(span > 0.0) || count < 1) return {low};
  const double raw = span / count;
  const int exponent = static_cast<int>(std::floor(std::log10(raw)));
  // Ticks are k * factor * 10^exponent; dividing by 10^-exponent keeps
  // decimal steps exact (0.6, not 0.6000000000000001).
  const double scale = std::pow(10.0, std::abs(exponent));
  auto value = [&](double units) {
    return exponent < 0 ? units / scale : units * scale;
  };
  double factor = 1.0;
  for (double f : {1.0, 2.0, 5.0, 10.0}) {
    factor = f;
    if (value(f) >= raw) break;
  }
  const double step = value(factor);
  std::vector<double> ticks;
  for (double k = std::ceil(low / step - 1e-9);; k += 1.0) {
    const double t = value(k * factor);
    if (t > high + step * 1e-9) break;
    ticks.push_back(t == 0.0 ? 0.0 : t);
  }
  return ticks;
}

std::string RenderLineChartSvg(const LineChart& chart) {
  Range xr, yr;
  for (const ChartSeries& s : chart.series) {
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (std::isfinite(s.x[i]) && std::isfinite(s.y[i])) {
        xr.Add(s.x[i]);
        yr.Add(s.y[i]);
      }
    }
  }
  xr.Settle();
  yr.Settle();
  // Widen the y range to whole ticks so the curves never touch the frame.
  std::vector<double> yticks = NiceTicks(yr.low, yr.high, 6);
  if (yticks.size() >= 2) {
    const double step = yticks[1] - yticks[0];
    yr.low = std::min(yr.low, std::floor(yr.low / step) * step);
    yr.high = std::max(yr.high, std::ceil(yr.high / step) * step);
    yticks = NiceTicks(yr.low, yr.high, 6);
  }
  std::vector<double> xticks = NiceTicks(xr.low, xr.high, 8);
  if (chart.integer_x && (xticks.size() < 2 || xticks[1] - xticks[0] < 1.0)) {
    xticks.clear();
    for (double t = std::ceil(xr.low); t <= xr.high; t += 1.0) {
      xticks.push_back(t);
    }
  }

  const int w = chart.width, h = chart.height;
  const double left = kMarginLeft, top = kMarginTop;
  const double plot_w = w - kMarginLeft - kMarginRight;
  const double plot_h = h - kMarginTop - kMarginBottom;
  auto px = [&](double x) {
    return left + (x - xr.low) / (xr.high - xr.low) * plot_w;
  };
  auto py = [&](double y) {
    return top + plot_h - (y - yr.low) / (yr.high - yr.low) * plot_h;
  };

  std::string out = absl::StrFormat(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
      "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
      w, h, w, h, w, h);
  absl::StrAppendFormat(&out,
                        "<text class=\"title\" x=\"%.1f\" y=\"28\" "
                        "text-anchor=\"middle\" font-size=\"16\" "
                        "font-weight=\"bold\">%s</text>\n",
                        left + plot_w / 2, XmlEscape(chart.title));
  // Grid and ticks.
  out += "<g class=\"grid\" stroke=\"#dddddd\" stroke-width=\"1\">\n";
  for (double t : yticks) {
    absl::StrAppendFormat(&out,
                          "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                          "y2=\"%.1f\"/>\n",
                          left, py(t), left + plot_w, py(t));
  }
  for (double t : xticks) {
    absl::StrAppendFormat(&out,
                          "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                          "y2=\"%.1f\"/>\n",
                          px(t), top, px(t), top + plot_h);
  }
  out += "</g>\n<g class=\"ticks\" fill=\"#333333\">\n";
  const double ystep = yticks.size() >= 2 ? yticks[1] - yticks[0] : 1.0;
  for (double t : yticks) {
    absl::StrAppendFormat(&out,
                          "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">"
                          "%s</text>\n",
                          left - 8, py(t) + 4, TickText(t, ystep));
  }
  const double xstep = xticks.size() >= 2 ? xticks[1] - xticks[0] : 1.0;
  for (double t : xticks) {
    absl::StrAppendFormat(&out,
                          "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
                          "%s</text>\n",
                          px(t), top + plot_h + 18, TickText(t, xstep));
  }
  out += "</g>\n";
  absl::StrAppendFormat(&out,
                        "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" "
                        "width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
                        "stroke=\"#333333\"/>\n",
                        left, top, plot_w, plot_h);
  absl::StrAppendFormat(&out,
                        "<text class=\"x-label\" x=\"%.1f\" y=\"%.1f\" "
                        "text-anchor=\"middle\">%s</text>\n",
                        left + plot_w / 2, top + plot_h + 42,
                        XmlEscape(chart.x_label));
  absl::StrAppendFormat(&out,
                        "<text class=\"y-label\" x=\"20\" y=\"%.1f\" "
                        "text-anchor=\"middle\" transform=\"rotate(-90 20 "
                        "%.1f)\">%s</text>\n",
                        top + plot_h / 2, top + plot_h / 2,
                        XmlEscape(chart.y_label));
  // Series and legend.
  for (size_t k = 0; k < chart.series.size(); ++k) {
    const ChartSeries& s = chart.series[k];
    const char* color = kColors[k % kNumColors];
    // Past ten series the colours repeat, dashed.
    const std::string dash = k >= kNumColors ? " stroke-dasharray=\"6 3\"" : "";
    std::string points;
    std::string dots;
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
      if (!points.empty()) points += ' ';
      absl::StrAppendFormat(&points, "%.1f,%.1f", px(s.x[i]), py(s.y[i]));
      absl::StrAppendFormat(&dots,
                            "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" "
                            "fill=\"%s\"/>\n",
                            px(s.x[i]), py(s.y[i]), color);
    }
    absl::StrAppendFormat(&out,
                          "<polyline class=\"series\" data-label=\"%s\" "
                          "points=\"%s\" fill=\"none\" stroke=\"%s\" "
                          "stroke-width=\"2\"%s/>\n",
                          XmlEscape(s.label), points, color, dash);
    out += dots;
    const double ly = top + 10 + 20 * k;
    const double lx = left + plot_w + 16;
    absl::StrAppendFormat(&out,
                          "<g class=\"legend\"><line x1=\"%.1f\" y1=\"%.1f\" "
                          "x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                          "stroke-width=\"2\"%s/><text x=\"%.1f\" y=\"%.1f\">"
                          "%s</text></g>\n",
                          lx, ly, lx + 24, ly, color, dash, lx + 30, ly + 4,
                          XmlEscape(s.label));
  }
  out += "</svg>\n";
  return out;
}

}  // namespace tools
}  // namespace umbra
