// Test support: cxxnet's image pages written as its im2bin writes them, for
// the tests of their reader and of configs that train on them.
#ifndef UMBRA_TRAIN_IMAGE_IMAGE_PAGES_TEST_UTIL_H_
#define UMBRA_TRAIN_IMAGE_IMAGE_PAGES_TEST_UTIL_H_

#include <string>
#include <vector>

namespace umbra {
namespace train {
namespace image_test {

// Writes `pictures` (encoded, in order) at most `per_page` a 64 MiB page:
// the page's first words count them and give where each ends, counted back
// from the page's end, where they are stored; the rest of the page is a
// hole (zeros). Written independently of the reader, to check it.
void WriteImagePages(const std::string& path,
                     const std::vector<std::string>& pictures, int per_page);

}  // namespace image_test
}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_IMAGE_IMAGE_PAGES_TEST_UTIL_H_
