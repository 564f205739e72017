// one_hot_encode, take / take_grad, range, mat_choose_row_element and
// mat_fill_row_element against naive loops.
#include "gtest/gtest.h"
#include "tensor/extension/extension.h"
#include "tensor/extension/reference.h"
#include "tensor/tensor.h"

namespace umbra {
namespace {

using ext_test::Idx;

template <typename DType>
class IndexTest : public ::testing::Test {};
typedef ::testing::Types<float, double> RealTypes;
TYPED_TEST_SUITE(IndexTest, RealTypes);

TYPED_TEST(IndexTest, OneHotEncode) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  const index_t n = rng.Int(1, 20), k = rng.Int(1, 9);
  auto label = rng.Labels<DType>(n, k);
  TensorContainer<cpu, 2, DType> out(Shape2(n, k));
  out = one_hot_encode(label, k) * DType(2);
  EXPECT_TRUE(ext_test::AllNear(
      out,
      [&](const Idx& i) { return index_t(label[i[0]]) == i[1] ? 2.0 : 0.0; },
      0));
  label[0] = DType(k);  // out of range: a row of zeros
  out = one_hot_encode(label, k);
  for (index_t x = 0; x < k; ++x) EXPECT_EQ(out[0][x], DType(0));
}

TYPED_TEST(IndexTest, TakeAndTakeGrad) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  const index_t vocab = rng.Int(1, 12), dim = rng.Int(1, 7);
  const index_t n = rng.Int(1, 25);
  auto table = rng.Tensor<DType>(Shape2(vocab, dim));
  auto words = rng.Labels<DType>(n, vocab);
  TensorContainer<cpu, 2, DType> out(Shape2(n, dim));
  out = take(words, table);
  EXPECT_TRUE(ext_test::AllNear(
      out,
      [&](const Idx& i) { return double(table[index_t(words[i[0]])][i[1]]); },
      0));
  auto grad = rng.Tensor<DType>(Shape2(n, dim));
  TensorContainer<cpu, 2, DType> gtable(table.shape_, DType(1));
  gtable += take_grad(words, grad, vocab);
  EXPECT_TRUE(ext_test::AllNear(
      gtable,
      [&](const Idx& i) {
        double s = 1;
        for (index_t w = 0; w < n; ++w) {
          if (index_t(words[w]) == i[0]) s += double(grad[w][i[1]]);
        }
        return s;
      },
      ext_test::Tol<DType>() * 10));
  // Out-of-range indices are clipped in both directions.
  words[0] = DType(vocab + 3);
  out = take(words, table);
  EXPECT_EQ(out[0][0], table[vocab - 1][0]);
}

TYPED_TEST(IndexTest, Range) {
  typedef TypeParam DType;
  auto check = [](DType start, DType stop, DType step, index_t repeat,
                  index_t want_size) {
    auto e = range<DType>(start, stop, step, repeat);
    EXPECT_EQ(e.size_, want_size);
    TensorContainer<cpu, 1, DType> out(Shape1(want_size));
    out = e * DType(1);
    EXPECT_TRUE(ext_test::AllNear(
        out,
        [&](const Idx& i) {
          return double(start) + double(i[0] / repeat) * double(step);
        },
        ext_test::Tol<DType>()))
        << start << " " << stop << " " << step << " " << repeat;
  };
  check(0, 5, 1, 1, 5);
  check(0, 3, 1, 2, 6);
  check(4, 0, -2, 1, 2);
  check(DType(0.5), DType(2), DType(0.5), 3, 9);
  check(1, 1, 1, 1, 0);
  EXPECT_TRUE(ext_test::ThrowsTensorError([] { range<DType>(0, 1, 0); },
                                          {"range", "step"}));
}

TYPED_TEST(IndexTest, ChooseAndFillRowElement) {
  typedef TypeParam DType;
  ext_test::Rng rng;
  const index_t n = rng.Int(1, 15), k = rng.Int(1, 8);
  auto m = rng.Tensor<DType>(Shape2(n, k));
  auto idx = rng.Labels<DType>(n, k);
  auto val = rng.Tensor<DType>(Shape1(n));
  TensorContainer<cpu, 1, DType> picked(Shape1(n));
  picked = mat_choose_row_element(m, idx);
  EXPECT_TRUE(ext_test::AllNear(
      picked, [&](const Idx& i) { return double(m[i[0]][index_t(idx[i[0]])]); },
      0));
  TensorContainer<cpu, 2, DType> filled(m.shape_);
  filled = mat_fill_row_element(m, val * DType(2), idx);
  EXPECT_TRUE(ext_test::AllNear(
      filled,
      [&](const Idx& i) {
        return index_t(idx[i[0]]) == i[1] ? 2 * double(val[i[0]])
                                          : double(m[i[0]][i[1]]);
      },
      ext_test::Tol<DType>()));
}

TEST(IndexErrorTest, ShapeErrors) {
  TensorContainer<cpu, 2> m(Shape2(4, 3), 0.0f);
  TensorContainer<cpu, 1> i5(Shape1(5), 0.0f), i4(Shape1(4), 0.0f);
  EXPECT_TRUE(
      ext_test::ThrowsTensorError([&] { mat_choose_row_element(m, i5); },
                                  {"mat_choose_row_element", "(4,3)", "(5,)"}));
  EXPECT_TRUE(ext_test::ThrowsTensorError(
      [&] { mat_fill_row_element(m, i5, i4); },
      {"mat_fill_row_element", "(4,3)", "(5,)", "(4,)"}));
  EXPECT_TRUE(ext_test::ThrowsTensorError([&] { take_grad(i5, m, 7); },
                                          {"take_grad", "(5,)", "(4,3)"}));
  EXPECT_TRUE(ext_test::ThrowsTensorError([&] { one_hot_encode(i4, 0); },
                                          {"one_hot_encode"}));
  TensorContainer<cpu, 2> out(Shape2(5, 3));
  EXPECT_TRUE(ext_test::ThrowsTensorError([&] { out.view() = take(i4, m); },
                                          {"(5,3)", "(4,3)"}));
}

}  // namespace
}  // namespace umbra
