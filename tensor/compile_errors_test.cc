// Compile-time misuse is rejected with a readable static_assert: each case
// below is compiled with the system compiler against the package headers and
// must fail with the given message (a control case must compile).
//
// The rejected misuses:
//   - mixing ranks:            dst2 = a2 + a3
//   - assigning to a wrong rank: dst3 = a2 * 2.0f
//   - mixing devices:          cpu_dst = gpu_src
//   - nesting dot():           dst = dot(a, b) + c
//   - dot with *= or /=:       dst *= dot(a, b)
//   - dot of int tensors:      idst = dot(ia, ib)
//   - transposing a 3-D value: dst3 = a3.T()
//   - a DataType flag for an unsupported type: DataType<char>::kFlag
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "gtest/gtest.h"

namespace {

const char* kPrelude = R"(
#include "tensor/tensor.h"
using namespace umbra;
using namespace umbra::expr;
void Body(Tensor<cpu, 2, float> a2, Tensor<cpu, 2, float> b2,
          Tensor<cpu, 2, float> dst2, Tensor<cpu, 3, float> a3,
          Tensor<cpu, 3, float> dst3, Tensor<gpu, 2, float> g2,
          Tensor<cpu, 2, int> ia, Tensor<cpu, 2, int> ib) {
)";

struct Case {
  const char* name;
  const char* body;
  const char* message;  // nullptr: must compile
};

// Compiles prelude + body + "}" with -fsyntax-only; returns exit status and
// captures the compiler output.
int Compile(const std::string& body, std::string* output) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  const std::string dir = tmp ? tmp : "/tmp";
  const std::string root = std::string(srcdir ? srcdir : ".") + "/" +
                           (workspace ? workspace : "umbra");
  const std::string src = dir + "/case.cc";
  std::ofstream(src) << kPrelude << body << "\n}\n";
  const std::string cmd = "c++ -std=c++17 -march=x86-64-v3 -fsyntax-only -I" +
                          root + " " + src + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf;
  output->clear();
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) {
    output->append(buf.data(), n);
  }
  const int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(CompileErrorsTest, MisuseIsRejectedWithAReadableMessage) {
  const Case cases[] = {
      {"control", "dst2 = a2 * 2.0f + b2; dst2 = dot(a2, b2.T());", nullptr},
      {"ranks differ", "dst2 = a2 + a3;",
       "the operands of this expression have different ranks"},
      {"destination rank", "dst3 = a2 * 2.0f;",
       "the rank of the expression differs from the destination's rank"},
      {"devices differ", "dst2 = g2 * 2.0f;",
       "all tensors of an expression must be on the destination's device"},
      {"nested dot", "dst2 = dot(a2, b2) + b2;",
       "dot()/batch_dot() cannot be part of an element-wise expression"},
      {"dot saver", "dst2 *= dot(a2, b2);",
       "dot() can be assigned with =, += or -= only"},
      {"dot dtype", "ia = dot(ia, ib);",
       "dot on the CPU supports float and double tensors only"},
      {"3-D transpose", "dst3 = a3.T();",
       "TransposeExp (.T()) is only defined for 2-D expressions"},
      {"data type", "int f = DataType<char>::kFlag; (void)f;",
       "DataType<T>: T must be one of"},
  };
  for (const Case& c : cases) {
    std::string output;
    const int status = Compile(c.body, &output);
    if (c.message == nullptr) {
      EXPECT_EQ(status, 0) << c.name << ":\n" << output.substr(0, 3000);
    } else {
      EXPECT_NE(status, 0) << c.name << " compiled";
      EXPECT_NE(output.find(c.message), std::string::npos)
          << c.name << ": message not found:\n"
          << output.substr(0, 3000);
    }
  }
}

}  // namespace
