// TShape (inline and heap storage, parsing, Save/Load) and TBlob (typed
// views with device, dtype, rank and size checks).
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

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

// An in-memory stream with Write / Read, as TShape::Save/Load expect.
struct MemoryStream {
  std::string data;
  size_t pos = 0;
  void Write(const void* p, size_t n) {
    data.append(static_cast<const char*>(p), n);
  }
  size_t Read(void* p, size_t n) {
    n = std::min(n, data.size() - pos);
    std::memcpy(p, data.data() + pos, n);
    pos += n;
    return n;
  }
};

TEST(TShapeTest, StorageConversionsAndComparison) {
  TShape s{2, 3, 4};
  EXPECT_EQ(s.ndim(), 3);
  EXPECT_EQ(s.Size(), 24);
  EXPECT_EQ(Str(s), "(2,3,4)");
  EXPECT_TRUE(s == Shape3(2, 3, 4));
  EXPECT_EQ(s.get<3>(), Shape3(2, 3, 4));
  EXPECT_THROW(s.get<2>(), TensorError);
  EXPECT_EQ(s.FlatTo2D(), Shape2(6, 4));
  EXPECT_EQ(s.FlatTo3D(1), Shape3(2, 3, 4));
  TShape big{1, 2, 3, 4, 5, 6};  // on the heap
  EXPECT_EQ(big.Size(), 720);
  EXPECT_EQ(big.FlatTo3D(1, 3), Shape3(1, 24, 30));
  TShape copy(big);
  EXPECT_EQ(copy, big);
  TShape moved(std::move(copy));
  EXPECT_EQ(moved, big);
  EXPECT_EQ(copy.ndim(), 0);
  s = big;
  EXPECT_EQ(s, big);
  s = std::vector<index_t>{7};
  EXPECT_EQ(Str(s), "(7,)");
  s = Shape2(8, 9);
  EXPECT_EQ(s, TShape({8, 9}));
  EXPECT_EQ(TShape(3), TShape({1, 1, 1}));
}

TEST(TShapeTest, ParsesPythonTuples) {
  struct Case {
    const char* in;
    bool ok;
    const char* out;
  };
  for (const Case& c :
       std::vector<Case>{{"3", true, "(3,)"},
                         {"(3,5)", true, "(3,5)"},
                         {"(3 , 5)", true, "(3,5)"},
                         {"(3, 4L, 5)", true, "(3,4,5)"},
                         {"(3,)", true, "(3,)"},
                         {"  (1,2,3,4,5,6)", true, "(1,2,3,4,5,6)"},
                         {"a", false, ""},
                         {"(3,4,a)", false, ""}}) {
    std::istringstream is(c.in);
    TShape s;
    is >> s;
    EXPECT_EQ(!is.fail(), c.ok) << c.in;
    if (c.ok) {
      EXPECT_EQ(Str(s), c.out) << c.in;
    }
  }
}

TEST(TShapeTest, SaveLoadRoundTrip) {
  MemoryStream strm;
  TShape a{5, 6, 7, 8, 9};
  a.Save(&strm);
  TShape b;
  ASSERT_TRUE(b.Load(&strm));
  EXPECT_EQ(a, b);
  EXPECT_FALSE(b.Load(&strm));  // nothing left
}

TEST(TBlobTest, TypedViewsAndChecks) {
  test::Rng rng;
  auto t = rng.Tensor<float>(Shape4(2, 3, 4, 5));
  TBlob blob(t);
  EXPECT_EQ(blob.ndim(), 4);
  EXPECT_EQ(blob.Size(), 120);
  EXPECT_EQ(blob.type_flag_, kFloat32);
  EXPECT_EQ(blob.dev_mask_, cpu::kDevMask);
  EXPECT_TRUE(blob.CheckContiguous());
  Tensor<cpu, 4, float> back = blob.get<cpu, 4, float>();
  EXPECT_EQ(back.dptr_, t.dptr_);
  EXPECT_EQ(back.shape_, t.shape_);
  Tensor<cpu, 2, float> flat = blob.FlatTo2D<cpu, float>();
  EXPECT_EQ(flat.shape_, Shape2(24, 5));
  EXPECT_EQ(flat[23][4], t[1][2][3][4]);
  EXPECT_EQ((blob.FlatTo3D<cpu, float>(2).shape_), Shape3(6, 4, 5));
  EXPECT_EQ((blob.FlatTo3D<cpu, float>(1, 2).shape_), Shape3(2, 12, 5));
  EXPECT_EQ((blob.get_with_shape<cpu, 2, float>(Shape2(10, 12)).shape_),
            Shape2(10, 12));

  try {
    blob.get<cpu, 4, double>();
    FAIL();
  } catch (const TensorError& e) {
    EXPECT_STREQ(e.what(),
                 "TBlob::get: data type mismatch: the blob holds float32, "
                 "requested float64");
  }
  try {
    blob.get<gpu, 4, float>();
    FAIL();
  } catch (const TensorError& e) {
    EXPECT_STREQ(e.what(),
                 "TBlob::get: device mismatch: the blob is on cpu, requested "
                 "gpu");
  }
  try {
    blob.get<cpu, 3, float>();
    FAIL();
  } catch (const TensorError& e) {
    EXPECT_STREQ(e.what(),
                 "TBlob::get: requested rank 3 but the blob has shape "
                 "(2,3,4,5) (rank 4)");
  }
  EXPECT_THROW((blob.get_with_shape<cpu, 2, float>(Shape2(10, 13))),
               TensorError);
  // A padded tensor: FlatTo2D works, reshaping does not.
  auto padded = rng.Tensor<double>(Shape2(3, 5), -1, 1, /*pad=*/true);
  TBlob pb(padded.view());
  EXPECT_FALSE(pb.CheckContiguous());
  EXPECT_EQ((pb.FlatTo2D<cpu, double>()[2][4]), padded[2][4]);
  EXPECT_THROW((pb.get_with_shape<cpu, 1, double>(Shape1(15))), TensorError);
  // Untyped constructor and the type switch.
  std::vector<int32_t> ints(6, 7);
  TBlob ib(ints.data(), TShape{2, 3}, cpu::kDevMask, kInt32);
  int64_t total = 0;
  UMBRA_TYPE_SWITCH(ib.type_flag_, DType, {
    Tensor<cpu, 2, DType> v = ib.get<cpu, 2, DType>();
    for (index_t y = 0; y < 2; ++y) {
      for (index_t x = 0; x < 3; ++x) total += int64_t(v[y][x]);
    }
  });
  EXPECT_EQ(total, 42);
  EXPECT_THROW(UMBRA_TYPE_SWITCH(99, DType, { (void)sizeof(DType); }),
               TensorError);
  EXPECT_THROW(UMBRA_REAL_TYPE_SWITCH(kInt32, DType, { (void)sizeof(DType); }),
               TensorError);
  EXPECT_EQ(TypeFlagSize(kFloat16), 2u);
}

TEST(TBlobTest, SaveLoad) {
  test::Rng rng;
  auto t = rng.Tensor<float>(Shape2(3, 7));
  MemoryStream strm;
  TBlob(t.view()).Save(&strm);
  TensorContainer<cpu, 2, float> u(Shape2(3, 7), 0.0f);
  TBlob ub(u.view());
  ASSERT_TRUE(ub.Load(&strm));
  EXPECT_TRUE(test::BitwiseEqual(t.view(), u.view()));
  strm.pos = 0;
  TensorContainer<cpu, 2, float> wrong(Shape2(7, 3), 0.0f);
  TBlob wb(wrong.view());
  EXPECT_THROW(wb.Load(&strm), TensorError);
}

TEST(HalfTest, ConversionsRoundTrip) {
  const float values[] = {0.0f,           -0.0f,          1.0f, -2.5f, 65504.0f,
                          6.1035156e-05f, 5.9604645e-08f, 0.1f, 1e6f};
  const float expect[] = {
      0.0f,           -0.0f,        1.0f,
      -2.5f,          65504.0f,     6.1035156e-05f,
      5.9604645e-08f, 0.099975586f, std::numeric_limits<float>::infinity()};
  for (int i = 0; i < 9; ++i) {
    EXPECT_EQ(float(half_t(values[i])), expect[i]) << values[i];
  }
  EXPECT_TRUE(std::isnan(float(half_t(std::nanf("")))));
  // Every half value converts to float and back exactly.
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const half_t h = half_t::Binary(uint16_t(bits));
    const float f = h;
    if (std::isnan(f)) continue;
    ASSERT_EQ(half_t(f).half_, bits) << bits;
  }
  EXPECT_EQ(DataType<half_t>::kFlag, kFloat16);
}

}  // namespace
}  // namespace umbra
