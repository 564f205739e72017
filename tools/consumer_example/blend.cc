#include "blend.h"

#include "tensor/tensor.h"

namespace consumer {

std::vector<float> Blend(float alpha, const std::vector<float>& x,
                         const std::vector<float>& y) {
  const umbra::index_t size = static_cast<umbra::index_t>(x.size());
  std::vector<float> result(x.size());
  umbra::Tensor<umbra::cpu, 1, float> out(result.data(), umbra::Shape1(size));
  umbra::Tensor<umbra::cpu, 1, float> in_x(const_cast<float*>(x.data()),
                                           umbra::Shape1(size));
  umbra::Tensor<umbra::cpu, 1, float> in_y(
      const_cast<float*>(y.data()),
      umbra::Shape1(static_cast<umbra::index_t>(y.size())));
  out = alpha * in_x +
        (1.0f - alpha) * in_y;  // one pass; throws if the sizes differ
  return result;
}

}  // namespace consumer
