// AllocSpace / FreeSpace (alignment, padding), NewTensor, Copy and the owning
// TensorContainer (Resize, copies, moves, expression assignment).
#include <utility>

#include "gtest/gtest.h"
#include "tensor/tensor.h"
#include "tensor/test_util.h"

namespace umbra {
namespace {

TEST(MemoryTest, AllocSpaceAlignsAndPads) {
  Tensor<cpu, 3, float> t(Shape3(2, 3, 5));
  AllocSpace(&t, /*pad=*/true);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t.dptr_) % 64, 0u);
  EXPECT_EQ(t.stride_, 16);
  EXPECT_TRUE(packet::CheckAlign<packet::kAVX2>(t[1][2].dptr_));
  t = 2.0f;
  EXPECT_EQ(t[1][2][4], 2.0f);
  FreeSpace(&t);
  EXPECT_EQ(t.dptr_, nullptr);
  Tensor<cpu, 2, double> u(Shape2(3, 5));
  AllocSpace(&u, /*pad=*/false);
  EXPECT_EQ(u.stride_, 5);
  EXPECT_TRUE(u.CheckContiguous());
  FreeSpace(&u);
}

// A buffer of 32 MB or more starts on a 2 MB boundary (a huge page's), and
// holds what is written to it like any other.
TEST(MemoryTest, LargeBuffersStartOnAHugePageBoundary) {
  Tensor<cpu, 2, float> t(Shape2(8193, 1024));
  AllocSpace(&t, /*pad=*/false);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t.dptr_) % (uintptr_t{1} << 21), 0u);
  t = 3.0f;
  t[8192][1023] = 4.0f;
  EXPECT_EQ(t[0][0], 3.0f);
  EXPECT_EQ(t[8192][1023], 4.0f);
  FreeSpace(&t);
}

TEST(MemoryTest, NewTensorAndCopy) {
  test::Rng rng;
  Tensor<cpu, 2, float> a = NewTensor<cpu>(Shape2(4, 7), 1.5f, true);
  EXPECT_TRUE(test::AllNear(
      a, [](index_t, index_t) { return 1.5; }, 0));
  rng.Fill(a);
  Tensor<cpu, 2, float> b = NewTensor<cpu>(Shape2(4, 7), 0.0f, false);
  Copy(b, a);  // padded -> contiguous
  EXPECT_TRUE(test::BitwiseEqual(a, b));
  Tensor<cpu, 2, float> c = NewTensor<cpu>(Shape2(7, 4), 0.0f);
  EXPECT_THROW(Copy(c, a), TensorError);
  FreeSpace(&a);
  FreeSpace(&b);
  FreeSpace(&c);
}

TEST(MemoryTest, LargeAndOverlappingCopies) {
  test::Rng rng;
  SetNumThreads(2);
  // Large enough to be cut over the threads, and an odd size.
  const index_t count = 3 * GetParallelThreshold() + 5;
  TensorContainer<cpu, 1, float> source(Shape1(count)), copy(Shape1(count));
  rng.Fill(source.view());
  Copy(copy.view(), source.view());
  EXPECT_TRUE(test::BitwiseEqual(copy.view(), source.view()));
  // Overlapping ranges of one buffer keep memmove's meaning: the result is
  // the source as it was before the copy.
  TensorContainer<cpu, 1, float> shifted(Shape1(count + 7));
  Copy(shifted.Slice(0, count), source.view());
  Copy(shifted.Slice(7, count + 7), shifted.Slice(0, count));
  EXPECT_TRUE(test::BitwiseEqual(shifted.Slice(7, count + 7), source.view()));
  SetNumThreads(0);
}

TEST(MemoryTest, TensorContainerOwnsResizesCopiesAndMoves) {
  test::Rng rng;
  TensorContainer<cpu, 2, float> a(Shape2(3, 4), 2.0f);
  EXPECT_EQ(a.shape_, Shape2(3, 4));
  EXPECT_TRUE(test::AllNear(
      a, [](index_t, index_t) { return 2.0; }, 0));
  float* before = a.dptr_;
  a.Resize(Shape2(2, 5));  // fits: same allocation
  EXPECT_EQ(a.dptr_, before);
  a.Resize(Shape2(10, 10), -1.0f);
  EXPECT_EQ(a.shape_, Shape2(10, 10));
  EXPECT_EQ(a[9][9], -1.0f);
  rng.Fill(a.view());
  TensorContainer<cpu, 2, float> copy(a);
  EXPECT_NE(copy.dptr_, a.dptr_);
  EXPECT_TRUE(test::BitwiseEqual(copy.view(), a.view()));
  TensorContainer<cpu, 2, float> moved(std::move(copy));
  EXPECT_EQ(copy.dptr_, nullptr);
  EXPECT_TRUE(test::BitwiseEqual(moved.view(), a.view()));
  TensorContainer<cpu, 2, float> assigned;
  assigned = a;
  EXPECT_TRUE(test::BitwiseEqual(assigned.view(), a.view()));
  // Assignment of an expression sizes the container.
  TensorContainer<cpu, 2, float> e;
  e = a * 2.0f;
  EXPECT_EQ(e.shape_, a.shape_);
  EXPECT_TRUE(test::AllNear(
      e, [&](index_t y, index_t x) { return 2.0 * a[y][x]; }, 0));
  // Assigning a plain view copies the data (the container owns its memory).
  Tensor<cpu, 2, float> view = a.view();
  TensorContainer<cpu, 2, float> deep;
  deep = view;
  EXPECT_NE(deep.dptr_, a.dptr_);
  EXPECT_TRUE(test::BitwiseEqual(deep.view(), view));
  // Padded container: rows aligned, expressions still right.
  TensorContainer<cpu, 2, double> p(Shape2(3, 5), 1.0, /*pad=*/true);
  EXPECT_EQ(p.stride_, 8);
  p += 1.0;
  EXPECT_TRUE(test::AllNear(
      p, [](index_t, index_t) { return 2.0; }, 0));
  p.Release();
  EXPECT_EQ(p.dptr_, nullptr);
}

}  // namespace
}  // namespace umbra
