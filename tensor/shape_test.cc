// Shape<N>, Tensor views (Slice, operator[], FlatTo2D, MemSize) and layouts.
#include <sstream>

#include "gtest/gtest.h"
#include "tensor/tensor.h"
#include "tensor/test_util.h"

namespace umbra {
namespace {

template <typename T>
std::string Str(const T& v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

TEST(ShapeTest, BasicsAndHelpers) {
  Shape<5> s = Shape5(3, 4, 5, 6, 7);
  EXPECT_EQ(s.Size(), 3 * 4 * 5 * 6 * 7);
  EXPECT_EQ(s.FlatTo1D()[0], s.Size());
  EXPECT_EQ(s.FlatTo2D(), Shape2(3 * 4 * 5 * 6, 7));
  EXPECT_EQ(s.ProdShape(1, 3), 20);
  EXPECT_EQ(s.SubShape(), Shape4(4, 5, 6, 7));
  EXPECT_EQ((s.Slice<2, 5>()), Shape3(5, 6, 7));
  EXPECT_TRUE(Shape2(1, 2) != Shape2(2, 1));
  EXPECT_EQ(Str(Shape1(3)), "(3,)");
  EXPECT_EQ(Str(Shape3(3, 4, 5)), "(3,4,5)");
  Shape<7> big;
  for (int i = 0; i < 7; ++i) big[i] = i + 1;
  EXPECT_EQ(big.Size(), 5040);
}

TEST(ShapeTest, ConvertLayout) {
  Shape<4> nchw = Shape4(2, 3, 5, 7);
  Shape<4> nhwc = ConvertLayout(nchw, kNCHW, kNHWC);
  EXPECT_EQ(nhwc, Shape4(2, 5, 7, 3));
  EXPECT_EQ(ConvertLayout(nhwc, kNHWC, kNCHW), nchw);
  EXPECT_EQ(ConvertLayout(nchw, kNCHW, kNCHW), nchw);
  Shape<5> ncdhw = Shape5(2, 3, 4, 5, 6);
  EXPECT_EQ(ConvertLayout(ncdhw, kNCDHW, kNDHWC), Shape5(2, 4, 5, 6, 3));
  EXPECT_EQ(ConvertLayout(Shape5(2, 4, 5, 6, 3), kNDHWC, kNCDHW), ncdhw);
  EXPECT_THROW(ConvertLayout(nchw, kNCDHW, kNCHW), TensorError);
}

TEST(TensorViewTest, IndexingSliceAndStrides) {
  float data[6 * 8];
  for (int i = 0; i < 48; ++i) data[i] = float(i);
  // A 3x2x5 view with rows 8 apart (padding of 3 per row).
  Tensor<cpu, 3> t(data, Shape3(3, 2, 5), 8, nullptr);
  EXPECT_FALSE(t.CheckContiguous());
  EXPECT_EQ(t.MSize(), 3 * 2 * 8);
  EXPECT_EQ(t.MemSize<1>(), 2 * 8);
  EXPECT_EQ(t.size(1), 2);
  EXPECT_EQ(t[1][1][3], data[(1 * 2 + 1) * 8 + 3]);
  Tensor<cpu, 3> s = t.Slice(1, 3);
  EXPECT_EQ(s.shape_, Shape3(2, 2, 5));
  EXPECT_EQ(s[0][0][0], data[16]);
  Tensor<cpu, 2> f = t.FlatTo2D();
  EXPECT_EQ(f.shape_, Shape2(6, 5));
  EXPECT_EQ(f[5][4], data[5 * 8 + 4]);
  Tensor<cpu, 1> row = f[2];
  EXPECT_EQ(row.size(0), 5);
  EXPECT_EQ(row.Slice(1, 3)[1], data[2 * 8 + 2]);
  row[0] = -1.0f;
  EXPECT_EQ(data[16], -1.0f);
  Stream<cpu> stream;
  t.set_stream(&stream);
  EXPECT_EQ(t.stream_, &stream);
  EXPECT_EQ(t[0].stream_, &stream);
}

}  // namespace
}  // namespace umbra
