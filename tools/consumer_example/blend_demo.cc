// Prints the blend of two small vectors: `bazel run //:blend_demo`.
#include <cstdio>

#include "blend.h"

int main() {
  const std::vector<float> blended =
      consumer::Blend(0.25f, {4, 8, 12}, {0, 4, 8});
  for (float value : blended) std::printf("%g ", value);
  std::printf("\n");
  return 0;
}
