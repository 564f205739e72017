// Converts an SVG file to PNG with the first converter found on PATH:
// rsvg-convert (librsvg2-bin), ImageMagick's convert, or inkscape.
//
// Example:
//
//   std::optional<std::string> tool = SvgToPng("plot.svg", "plot.png");
//   if (!tool) std::cerr << "no SVG converter; wrote only plot.svg\n";
//
// Contracts: returns the converter's name on success and nullopt when none
// is installed; throws std::runtime_error when the converter fails.
#ifndef UMBRA_TOOLS_SVG_TO_PNG_H_
#define UMBRA_TOOLS_SVG_TO_PNG_H_

#include <optional>
#include <string>

namespace umbra {
namespace tools {

std::optional<std::string> SvgToPng(const std::string& svg_path,
                                    const std::string& png_path);

}  // namespace tools
}  // namespace umbra

#endif  // UMBRA_TOOLS_SVG_TO_PNG_H_
