// TimeNet on the gpu (--config=cuda builds), compiled by g++: the net runs
// the layers //layers/gpu compiled, and every tensor of the net is on the
// device's default stream (BasicNetwork sets no stream), so waiting for
// that stream waits for the net's work.
#include "tensor/tensor.h"
#include "tools/layer_timing_impl.h"

namespace umbra {
namespace tools {
namespace internal {

template <>
void WaitForDevice<gpu>() {
  DefaultStream()->Wait();
}

}  // namespace internal

template NetTiming TimeNet<gpu>(train::BasicNetwork<gpu>* net, int iterations,
                                int warmup);

}  // namespace tools
}  // namespace umbra
