// Blends two vectors with umbra's expression engine: the example library of a
// workspace that depends on umbra.
#ifndef CONSUMER_EXAMPLE_BLEND_H_
#define CONSUMER_EXAMPLE_BLEND_H_

#include <vector>

namespace consumer {

// Returns alpha * x + (1 - alpha) * y, element by element. x and y must have
// one size.
std::vector<float> Blend(float alpha, const std::vector<float>& x,
                         const std::vector<float>& y);

}  // namespace consumer

#endif  // CONSUMER_EXAMPLE_BLEND_H_
