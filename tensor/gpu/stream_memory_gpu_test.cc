// Streams, device selection, device memory, copies in every direction
// (strided, async, pinned) and TensorContainer<gpu>, from host code (g++).
#include <string>
#include <utility>

#include "gtest/gtest.h"
#include "tensor/gpu/gpu_test_util.h"
#include "tensor/tensor.h"

namespace umbra {
namespace {

using gpu_test::GpuNear;
using gpu_test::GpuTest;
using gpu_test::ToCpu;
using gpu_test::ToGpu;

class StreamGpuTest : public GpuTest {};

TEST_F(StreamGpuTest, NewWaitIdleDelete) {
  InitTensorEngine<gpu>(0);
  Stream<gpu>* stream = NewStream<gpu>(true, true);
  EXPECT_NE(stream->stream_, nullptr);
  EXPECT_NE(stream->blas_handle_, nullptr);
  EXPECT_NE(stream->dnn_handle_, nullptr);
  TensorContainer<gpu, 2> t(Shape2(512, 1024));
  t.set_stream(stream);
  t = 2.0f;
  t *= 3.0f;
  stream->Wait();
  EXPECT_TRUE(stream->CheckIdle());
  TensorContainer<cpu, 2> want(Shape2(512, 1024), 6.0f);
  EXPECT_TRUE(GpuNear(t.view(), want.view(), 0.0));
  t.set_stream(nullptr);
  DeleteStream(stream);
  ShutdownTensorEngine<gpu>();
}

TEST_F(StreamGpuTest, TensorWithoutStreamRunsOnTheDefaultStream) {
  Tensor<gpu, 1> t = NewTensor<gpu>(Shape1(1000), 1.5f);
  EXPECT_EQ(t.stream_, nullptr);
  t += 1.0f;  // no set_stream: no abort, the default stream
  TensorContainer<cpu, 1> want(Shape1(1000), 2.5f);
  EXPECT_TRUE(GpuNear(t, want.view(), 0.0));
  FreeSpace(&t);
  EXPECT_EQ(t.dptr_, nullptr);
  Stream<gpu>* def = DefaultStream();
  EXPECT_EQ(def, DefaultStream());
  EXPECT_EQ(def->stream_, nullptr);
  EXPECT_NE(def->blas_handle(), nullptr);
}

TEST_F(StreamGpuTest, SetDeviceToAMissingDeviceNamesTheCount) {
  try {
    SetDevice<gpu>(GpuDeviceCount() + 5);
    FAIL() << "no error";
  } catch (const GpuError& e) {
    EXPECT_NE(std::string(e.what()).find("device(s) visible"),
              std::string::npos)
        << e.what();
  }
  SetDevice<gpu>(0);
}

TEST_F(StreamGpuTest, FailedAllocationNamesTheCallAndShape) {
  Tensor<gpu, 2> huge(Shape2(index_t(1) << 30, index_t(1) << 20));
  try {
    AllocSpace(&huge);
    FreeSpace(&huge);
    FAIL() << "allocated 4 PiB";
  } catch (const GpuError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cudaMalloc"), std::string::npos) << what;
    EXPECT_NE(what.find("AllocSpace<gpu>"), std::string::npos) << what;
    EXPECT_NE(what.find("(1073741824,1048576)"), std::string::npos) << what;
  }
}

class MemoryGpuTest : public GpuTest {};

TEST_F(MemoryGpuTest, RoundTripsInEveryDirectionWithStrides) {
  auto host = rng_.Tensor<float>(Shape3(5, 7, 33));
  for (bool pad : {false, true}) {
    TensorContainer<gpu, 3> a(host.shape_, pad), b(host.shape_, !pad);
    if (pad) {
      EXPECT_GE(a.stride_, 33);
    }
    Copy(a.view(), host.view());
    Copy(b.view(), a.view());
    TensorContainer<cpu, 3> back(host.shape_);
    Copy(back.view(), b.view());
    EXPECT_TRUE(gpu_test::AllNear(back.view(), host.view(), 0.0));
  }
  // A column block of a wider device matrix into a host view with stride.
  auto wide = rng_.Tensor<float>(Shape2(20, 50));
  auto gwide = ToGpu(wide.view(), true);
  Tensor<gpu, 2> block(gwide.dptr_ + 10, Shape2(20, 30), gwide.stride_,
                       nullptr);
  TensorContainer<cpu, 2> out(Shape2(20, 64), 0.0f);
  Tensor<cpu, 2> out_block(out.dptr_ + 4, Shape2(20, 30), 64, nullptr);
  Copy(out_block, block);
  for (index_t y = 0; y < 20; ++y) {
    for (index_t x = 0; x < 30; ++x) {
      ASSERT_EQ(out[y][x + 4], wide[y][x + 10]) << y << "," << x;
    }
  }
}

TEST_F(MemoryGpuTest, AsyncCopiesThroughPinnedMemory) {
  Stream<gpu>* stream = NewStream<gpu>(false);
  auto host = rng_.Tensor<double>(Shape2(256, 300));
  PinnedTensor<2, double> pinned(host.shape_), back(host.shape_);
  Copy(pinned.view(), host.view());
  TensorContainer<gpu, 2, double> dev(host.shape_);
  dev.set_stream(stream);
  Copy(dev.view(), pinned.view(), stream);
  dev *= 2.0;
  Copy(back.view(), dev.view(), stream);
  stream->Wait();
  TensorContainer<cpu, 2, double> want(host.shape_);
  want = host * 2.0;
  EXPECT_TRUE(gpu_test::AllNear(back.view(), want.view(), 0.0));
  dev.set_stream(nullptr);
  DeleteStream(stream);
}

TEST_F(MemoryGpuTest, CopyShapeMismatchThrows) {
  TensorContainer<gpu, 2> a(Shape2(3, 4)), b(Shape2(4, 3));
  EXPECT_THROW(Copy(a.view(), b.view()), TensorError);
}

TEST_F(MemoryGpuTest, ContainerCopyMoveResizeAndEveryType) {
  TensorContainer<gpu, 2> a(Shape2(10, 20), 3.0f);
  TensorContainer<gpu, 2> b(a);  // deep copy
  b += 1.0f;
  TensorContainer<cpu, 2> three(Shape2(10, 20), 3.0f),
      four(Shape2(10, 20), 4.0f);
  EXPECT_TRUE(GpuNear(a.view(), three.view(), 0.0));
  EXPECT_TRUE(GpuNear(b.view(), four.view(), 0.0));
  TensorContainer<gpu, 2> c(std::move(b));
  EXPECT_EQ(b.dptr_, nullptr);
  EXPECT_TRUE(GpuNear(c.view(), four.view(), 0.0));
  c.Resize(Shape2(5, 5), -1.0f);
  TensorContainer<cpu, 2> minus(Shape2(5, 5), -1.0f);
  EXPECT_TRUE(GpuNear(c.view(), minus.view(), 0.0));
  // Host-callable fills and copies for every element type and saver.
  TensorContainer<gpu, 3, double> d(Shape3(2, 3, 4), 6.0);
  d /= 4.0;
  d -= 0.5;
  TensorContainer<gpu, 3, double> e(Shape3(2, 3, 4), 2.0);
  e *= d;
  e += d;
  TensorContainer<cpu, 3, double> e_want(Shape3(2, 3, 4), 3.0);
  EXPECT_TRUE(GpuNear(e.view(), e_want.view(), 0.0));
  TensorContainer<gpu, 1, half_t> h(Shape1(99), half_t(1.5f));
  TensorContainer<gpu, 1, int8_t> i8(Shape1(99), int8_t(-3));
  TensorContainer<gpu, 1, int64_t> i64(Shape1(99), int64_t(1) << 40);
  TensorContainer<gpu, 1, uint8_t> u8(Shape1(99), uint8_t(200));
  TensorContainer<gpu, 1, int32_t> i32(Shape1(99), 7);
  h += h;
  i8 *= int8_t(2);
  i64 += int64_t(1);
  u8 -= uint8_t(100);
  i32 /= 7;
  EXPECT_EQ(float(ToCpu(h.view())[5]), 3.0f);
  EXPECT_EQ(ToCpu(i8.view())[5], -6);
  EXPECT_EQ(ToCpu(i64.view())[5], (int64_t(1) << 40) + 1);
  EXPECT_EQ(ToCpu(u8.view())[5], 100);
  EXPECT_EQ(ToCpu(i32.view())[5], 1);
}

}  // namespace
}  // namespace umbra
