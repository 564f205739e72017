// The seeds' own examples, with mshadow:: replaced by umbra::, and their
// printed output compared with what the seeds show.
#include <cstdio>
#include <string>

#include "gtest/gtest.h"
#include "tensor/tensor.h"

using namespace umbra;        // NOLINT: the seeds' examples are written so
using namespace umbra::expr;  // NOLINT

// Seed 001's user-defined operator.
struct maximum {
  UMBRA_XINLINE static float Map(float a, float b) { return a > b ? a : b; }
};

namespace {

std::string Capture(void (*body)(FILE*)) {
  char buf[4096];
  FILE* f = fmemopen(buf, sizeof(buf), "w");
  body(f);
  const long n = ftell(f);
  fclose(f);
  return std::string(buf, n);
}

// Chapter 2.4: tcast.
void TcastExample(FILE* out) {
  float data[10];
  int data1[10];
  Tensor<cpu, 2> mat(data, Shape2(5, 2));
  Tensor<cpu, 2, int> mat1(data1, Shape2(5, 2));
  mat = 3.2f;
  mat1 = tcast<int>(mat);
  for (index_t i = 0; i < mat.size(0); ++i) {
    for (index_t j = 0; j < mat.size(1); ++j) fprintf(out, "%.2f ", mat[i][j]);
    fprintf(out, "\n");
  }
  for (index_t i = 0; i < mat1.size(0); ++i) {
    for (index_t j = 0; j < mat1.size(1); ++j) fprintf(out, "%d ", mat1[i][j]);
    fprintf(out, "\n");
  }
}

TEST(SeedExamplesTest, TcastPrintsWhatTheSeedShows) {
  EXPECT_EQ(Capture(TcastExample),
            "3.20 3.20 \n3.20 3.20 \n3.20 3.20 \n3.20 3.20 \n3.20 3.20 \n"
            "3 3 \n3 3 \n3 3 \n3 3 \n3 3 \n");
}

// Seed 001: A = B + C + C.
void AddExample(FILE* out) {
  const int n = 3;
  float sa[n] = {1, 2, 3};
  float sb[n] = {2, 3, 4};
  float sc[n] = {3, 4, 5};
  Tensor<cpu, 1> A(sa, Shape1(n)), B(sb, Shape1(n)), C(sc, Shape1(n));
  A = B + C + C;
  for (int i = 0; i < n; ++i) {
    fprintf(out, "%d:%f == %f + %f + %f\n", i, A[i], B[i], C[i], C[i]);
  }
}

TEST(SeedExamplesTest, BPlusCPlusC) {
  EXPECT_EQ(Capture(AddExample),
            "0:8.000000 == 2.000000 + 3.000000 + 3.000000\n"
            "1:11.000000 == 3.000000 + 4.000000 + 4.000000\n"
            "2:14.000000 == 4.000000 + 5.000000 + 5.000000\n");
}

// Seed 001: A = B * F<maximum>(C, B) with the user-defined maximum.
void MaximumExample(FILE* out) {
  const int n = 3;
  float sa[n] = {1, 2, 3};
  float sb[n] = {2, 3, 4};
  float sc[n] = {3, 4, 5};
  Tensor<cpu, 1> A(sa, Shape1(n)), B(sb, Shape1(n)), C(sc, Shape1(n));
  A = B * F<maximum>(C, B);
  for (int i = 0; i < n; ++i) {
    fprintf(out, "%d:%f == %f * max(%f, %f)\n", i, A[i], B[i], C[i], B[i]);
  }
}

TEST(SeedExamplesTest, UserDefinedMaximum) {
  EXPECT_EQ(Capture(MaximumExample),
            "0:6.000000 == 2.000000 * max(3.000000, 2.000000)\n"
            "1:12.000000 == 3.000000 * max(4.000000, 3.000000)\n"
            "2:20.000000 == 4.000000 * max(5.000000, 4.000000)\n");
}

// Chapter 1: Shape slicing and Tensor construction.
TEST(SeedExamplesTest, ShapeSliceAndTensor) {
  Shape<5> ss = Shape5(3, 4, 5, 6, 7);
  Shape<3> sss = ss.Slice<2, 5>();
  EXPECT_EQ(sss, Shape3(5, 6, 7));
  float data[20];
  Tensor<cpu, 3> ts(data, Shape3(2, 5, 2));
  ts = 1.0f;
  ts += 2.0f;
  EXPECT_EQ(ts[1][4][1], 3.0f);
}

}  // namespace
