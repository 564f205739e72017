// The cuDNN adapter (see cudnn.h).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <utility>
#include <vector>

#include "layers/cudnn/cudnn.h"

namespace umbra {
namespace layers {
namespace cudnn {
namespace {

using ::umbra::detail::StrCat;

// cuDNN takes sizes as int.
int ToInt(index_t value, const char* what) {
  if (value < 0 || value > std::numeric_limits<int>::max()) {
    throw GpuError(StrCat("cuDNN: ", what, " ", value, " does not fit an int"));
  }
  return static_cast<int>(value);
}

const char* TypeName(cudnnDataType_t type) {
  switch (type) {
    case CUDNN_DATA_FLOAT:
      return "float";
    case CUDNN_DATA_DOUBLE:
      return "double";
    default:
      return "(another cudnnDataType_t)";
  }
}

// "9.19.0" from cuDNN 9's version number 91900.
std::string VersionText(size_t version) {
  return StrCat(version / 10000, ".", version % 10000 / 100, ".",
                version % 100);
}

// " (<cuDNN's last error message>)", or "" when it has none.
std::string LastErrorMessage() {
  char message[1024] = "";
  cudnnGetLastErrorString(message, sizeof(message));
  return message[0] != '\0' ? StrCat(" (", message, ")") : "";
}

// For errors: the enumerator's name.
const char* MathName(cudnnMathType_t math) {
  switch (math) {
    case CUDNN_DEFAULT_MATH:
      return "CUDNN_DEFAULT_MATH";
    case CUDNN_TENSOR_OP_MATH:
      return "CUDNN_TENSOR_OP_MATH";
    case CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION:
      return "CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION";
    case CUDNN_FMA_MATH:
      return "CUDNN_FMA_MATH";
  }
  return "(another cudnnMathType_t)";
}

// One convolution problem, as the algorithm searches take it.
struct Problem {
  cudnnHandle_t handle;
  cudnnTensorDescriptor_t x;
  cudnnFilterDescriptor_t w;
  cudnnConvolutionDescriptor_t conv;
  cudnnTensorDescriptor_t y;
  // conv's math type (ConvolutionDescriptor::Set), under which every
  // algorithm runs.
  cudnnMathType_t math;
  // For errors: the descriptors' str().
  std::string text;
};

// The algorithm search of each direction: how many algorithms there are,
// cudnnFind* (measured, fastest first), cudnnGet*_v7 (heuristics, best
// first), both unchecked (Choose reads their status), and the workspace an
// algorithm needs.
struct ForwardSearch {
  using Perf = cudnnConvolutionFwdAlgoPerf_t;
  static constexpr const char* kName = "forward";
  static int MaxCount(const Problem& p) {
    int n = 0;
    UMBRA_CUDNN_CHECK(cudnnGetConvolutionForwardAlgorithmMaxCount(p.handle, &n),
                      p.text);
    return n;
  }
  static constexpr const char* kFind = "cudnnFindConvolutionForwardAlgorithm";
  static constexpr const char* kHeuristics =
      "cudnnGetConvolutionForwardAlgorithm_v7";
  static cudnnStatus_t Find(const Problem& p, int capacity, int* count,
                            Perf* results) {
    return cudnnFindConvolutionForwardAlgorithm(p.handle, p.x, p.w, p.conv, p.y,
                                                capacity, count, results);
  }
  static cudnnStatus_t Heuristics(const Problem& p, int capacity, int* count,
                                  Perf* results) {
    return cudnnGetConvolutionForwardAlgorithm_v7(
        p.handle, p.x, p.w, p.conv, p.y, capacity, count, results);
  }
  static size_t Bytes(const Problem& p, cudnnConvolutionFwdAlgo_t algo) {
    size_t bytes = 0;
    UMBRA_CUDNN_CHECK(cudnnGetConvolutionForwardWorkspaceSize(
                          p.handle, p.x, p.w, p.conv, p.y, algo, &bytes),
                      p.text);
    return bytes;
  }
};

struct BackwardDataSearch {
  using Perf = cudnnConvolutionBwdDataAlgoPerf_t;
  static constexpr const char* kName = "backward data";
  static int MaxCount(const Problem& p) {
    int n = 0;
    UMBRA_CUDNN_CHECK(
        cudnnGetConvolutionBackwardDataAlgorithmMaxCount(p.handle, &n), p.text);
    return n;
  }
  static constexpr const char* kFind =
      "cudnnFindConvolutionBackwardDataAlgorithm";
  static constexpr const char* kHeuristics =
      "cudnnGetConvolutionBackwardDataAlgorithm_v7";
  static cudnnStatus_t Find(const Problem& p, int capacity, int* count,
                            Perf* results) {
    return cudnnFindConvolutionBackwardDataAlgorithm(
        p.handle, p.w, p.y, p.conv, p.x, capacity, count, results);
  }
  static cudnnStatus_t Heuristics(const Problem& p, int capacity, int* count,
                                  Perf* results) {
    return cudnnGetConvolutionBackwardDataAlgorithm_v7(
        p.handle, p.w, p.y, p.conv, p.x, capacity, count, results);
  }
  static size_t Bytes(const Problem& p, cudnnConvolutionBwdDataAlgo_t algo) {
    size_t bytes = 0;
    UMBRA_CUDNN_CHECK(cudnnGetConvolutionBackwardDataWorkspaceSize(
                          p.handle, p.w, p.y, p.conv, p.x, algo, &bytes),
                      p.text);
    return bytes;
  }
};

struct BackwardFilterSearch {
  using Perf = cudnnConvolutionBwdFilterAlgoPerf_t;
  static constexpr const char* kName = "backward filter";
  static int MaxCount(const Problem& p) {
    int n = 0;
    UMBRA_CUDNN_CHECK(
        cudnnGetConvolutionBackwardFilterAlgorithmMaxCount(p.handle, &n),
        p.text);
    return n;
  }
  static constexpr const char* kFind =
      "cudnnFindConvolutionBackwardFilterAlgorithm";
  static constexpr const char* kHeuristics =
      "cudnnGetConvolutionBackwardFilterAlgorithm_v7";
  static cudnnStatus_t Find(const Problem& p, int capacity, int* count,
                            Perf* results) {
    return cudnnFindConvolutionBackwardFilterAlgorithm(
        p.handle, p.x, p.y, p.conv, p.w, capacity, count, results);
  }
  static cudnnStatus_t Heuristics(const Problem& p, int capacity, int* count,
                                  Perf* results) {
    return cudnnGetConvolutionBackwardFilterAlgorithm_v7(
        p.handle, p.x, p.y, p.conv, p.w, capacity, count, results);
  }
  static size_t Bytes(const Problem& p, cudnnConvolutionBwdFilterAlgo_t algo) {
    size_t bytes = 0;
    UMBRA_CUDNN_CHECK(cudnnGetConvolutionBackwardFilterWorkspaceSize(
                          p.handle, p.x, p.y, p.conv, p.w, algo, &bytes),
                      p.text);
    return bytes;
  }
};

// The first usable result, measured (cudnnFind*, fastest first), else by
// the heuristics (cudnnGet*_v7, best first); sets *algo and *bytes. Usable:
// it ran, its math type is the descriptor's (FMA for float, DEFAULT for
// double), and its workspace fits the limit. cuDNN gives (algorithm, math
// type) pairs and an algorithm must run under the math type it was chosen
// with; the descriptor's is never changed, so tensor-core (and TF32)
// results are never taken. A search that fails (cudnnFind* allocates its
// own buffers: CUDNN_STATUS_ALLOC_FAILED on a nearly full GPU) counts as
// one with no results. The workspace is the larger of what the search
// reported and what cudnnGet*WorkspaceSize says the call needs, so that
// Workspace() never refuses it later. Throws GpuError saying what each
// search gave when neither has a usable result.
template <typename Search, typename Algo>
void Choose(const Problem& p, Algo* algo, size_t* bytes) {
  using Perf = typename Search::Perf;
  struct Method {
    const char* call;
    cudnnStatus_t (*search)(const Problem&, int, int*, Perf*);
  };
  const Method methods[] = {{Search::kFind, &Search::Find},
                            {Search::kHeuristics, &Search::Heuristics}};
  std::vector<Perf> results(Search::MaxCount(p));
  std::string tried;
  for (const Method& method : methods) {
    if (!tried.empty()) tried += "; ";
    int count = 0;
    const cudnnStatus_t status =
        method.search(p, int(results.size()), &count, results.data());
    if (status != CUDNN_STATUS_SUCCESS) {
      // A failed allocation inside cuDNN leaves its error for the next
      // cudaGetLastError (a later launch check): clear it.
      cudaGetLastError();
      tried += StrCat(method.call, " failed: ", cudnnGetErrorString(status),
                      LastErrorMessage());
      continue;
    }
    int not_run = 0, other_math = 0, too_large = 0;
    std::vector<cudnnMathType_t> other_maths;  // each once, for the error
    for (int i = 0; i < count; ++i) {
      const Perf& perf = results[i];
      if (perf.status != CUDNN_STATUS_SUCCESS) {
        ++not_run;
        continue;
      }
      if (perf.mathType != p.math) {
        ++other_math;
        if (std::find(other_maths.begin(), other_maths.end(), perf.mathType) ==
            other_maths.end()) {
          other_maths.push_back(perf.mathType);
        }
        continue;
      }
      const size_t need = std::max(perf.memory, Search::Bytes(p, perf.algo));
      if (need > kWorkspaceLimitBytes) {
        ++too_large;
        continue;
      }
      *algo = perf.algo;
      *bytes = need;
      return;
    }
    std::string maths;
    for (cudnnMathType_t math : other_maths) {
      maths += StrCat(maths.empty() ? " (" : ", ", MathName(math));
    }
    if (!maths.empty()) maths += ")";
    tried += StrCat(method.call, " gave ", count, " results: ", not_run,
                    " failed or not supported, ", other_math,
                    " under another math type", maths, ", ", too_large,
                    " over the workspace limit");
  }
  throw GpuError(StrCat("cuDNN has no usable ", Search::kName,
                        " convolution algorithm for ", p.text,
                        " (usable: math type ", MathName(p.math),
                        " as the descriptor's, workspace within ",
                        kWorkspaceLimitBytes >> 20, " MiB): ", tried));
}

}  // namespace

void ThrowError(const char* call, cudnnStatus_t status,
                const std::string& context, const char* file, int line) {
  throw GpuError(StrCat(
      "cuDNN call ", call, " failed: ", cudnnGetErrorString(status),
      LastErrorMessage(), context.empty() ? "" : StrCat(" [", context, "]"),
      " at ", file, ":", line));
}

cudnnHandle_t Handle(Stream<gpu>* stream) {
  static std::once_flag printed;
  std::call_once(printed, [] {
    std::fprintf(stderr, "umbra: cuDNN %s (built with %s)\n",
                 VersionText(cudnnGetVersion()).c_str(),
                 VersionText(CUDNN_VERSION).c_str());
  });
  return Stream<gpu>::OrDefault(stream)->dnn_handle();
}

void* Workspace(Stream<gpu>* stream, size_t bytes) {
  if (bytes == 0) return nullptr;
  if (bytes > kWorkspaceLimitBytes) {
    throw GpuError(StrCat("cuDNN workspace of ", bytes,
                          " bytes asked for; the limit is ",
                          kWorkspaceLimitBytes, " bytes"));
  }
  using Buffer = TensorContainer<gpu, 1, uint8_t>;
  static std::mutex mutex;
  // Never freed: device memory must not be freed after the CUDA runtime
  // has shut down at exit.
  static auto* buffers =
      new std::map<std::pair<Stream<gpu>*, int>, std::unique_ptr<Buffer>>();
  Stream<gpu>* owner = Stream<gpu>::OrDefault(stream);
  std::lock_guard<std::mutex> lock(mutex);
  // By device too: a freed stream's address may come back on another one.
  std::unique_ptr<Buffer>& buffer = (*buffers)[{owner, owner->device_}];
  if (buffer == nullptr) buffer = std::make_unique<Buffer>(false);
  // Growing frees the old buffer with cudaFree, which first waits for the
  // work still using it.
  if (size_t(buffer->size(0)) < bytes) buffer->Resize(Shape1(bytes));
  return buffer->dptr_;
}

void TensorDescriptor::Set(cudnnDataType_t type, const Shape<4>& shape) {
  std::ostringstream text;
  text << TypeName(type) << " " << shape;
  text_ = text.str();
  UMBRA_CUDNN_CHECK(cudnnSetTensor4dDescriptor(
                        desc_, CUDNN_TENSOR_NCHW, type,
                        ToInt(shape[0], "batch"), ToInt(shape[1], "channels"),
                        ToInt(shape[2], "height"), ToInt(shape[3], "width")),
                    "tensor " + text_);
}

void FilterDescriptor::Set(cudnnDataType_t type, const Shape<4>& shape) {
  std::ostringstream text;
  text << TypeName(type) << " " << shape;
  text_ = text.str();
  UMBRA_CUDNN_CHECK(
      cudnnSetFilter4dDescriptor(
          desc_, type, CUDNN_TENSOR_NCHW, ToInt(shape[0], "filters"),
          ToInt(shape[1], "filter channels"), ToInt(shape[2], "kernel height"),
          ToInt(shape[3], "kernel width")),
      "filter " + text_);
}

void ConvolutionDescriptor::Set(cudnnDataType_t type, const Shape<2>& pad,
                                const Shape<2>& stride, const Shape<2>& dilate,
                                index_t groups) {
  // FMA only: no tensor-core kernels, so no TF32 for float (see cudnn.h),
  // and the searches report every result under this one math type (PyTorch
  // relies on the same for float with TF32 off).
  const cudnnMathType_t math = CUDNN_FMA_MATH;
  std::ostringstream text;
  text << TypeName(type) << " pad " << pad << " stride " << stride << " dilate "
       << dilate << " groups " << groups;
  text_ = text.str();
  UMBRA_CUDNN_CHECK(
      cudnnSetConvolution2dDescriptor(
          desc_, ToInt(pad[0], "pad"), ToInt(pad[1], "pad"),
          ToInt(stride[0], "stride"), ToInt(stride[1], "stride"),
          ToInt(dilate[0], "dilation"), ToInt(dilate[1], "dilation"),
          CUDNN_CROSS_CORRELATION, type),
      "convolution " + text_);
  UMBRA_CUDNN_CHECK(
      cudnnSetConvolutionGroupCount(desc_, ToInt(groups, "groups")),
      "convolution " + text_);
  UMBRA_CUDNN_CHECK(cudnnSetConvolutionMathType(desc_, math),
                    "convolution " + text_);
}

void PoolingDescriptor::Set(cudnnPoolingMode_t mode, const Shape<2>& window,
                            const Shape<2>& pad, const Shape<2>& stride) {
  std::ostringstream text;
  text << "mode " << int(mode) << " window " << window << " pad " << pad
       << " stride " << stride;
  text_ = text.str();
  UMBRA_CUDNN_CHECK(cudnnSetPooling2dDescriptor(
                        desc_, mode, CUDNN_NOT_PROPAGATE_NAN,
                        ToInt(window[0], "window"), ToInt(window[1], "window"),
                        ToInt(pad[0], "pad"), ToInt(pad[1], "pad"),
                        ToInt(stride[0], "stride"), ToInt(stride[1], "stride")),
                    "pooling " + text_);
}

void ActivationDescriptor::Set(cudnnActivationMode_t mode) {
  text_ = StrCat("activation mode ", int(mode));
  UMBRA_CUDNN_CHECK(
      cudnnSetActivationDescriptor(desc_, mode, CUDNN_NOT_PROPAGATE_NAN, 0.0),
      text_);
}

void LrnDescriptor::Set(index_t n, double alpha, double beta, double k) {
  text_ = StrCat("lrn n ", n, " alpha ", alpha, " beta ", beta, " k ", k);
  UMBRA_CUDNN_CHECK(cudnnSetLRNDescriptor(desc_, unsigned(ToInt(n, "lrn size")),
                                          alpha, beta, k),
                    text_);
}

ConvolutionAlgorithms FindConvolutionAlgorithms(
    cudnnHandle_t handle, const TensorDescriptor& x, const FilterDescriptor& w,
    const ConvolutionDescriptor& conv, const TensorDescriptor& y) {
  cudnnMathType_t math = CUDNN_DEFAULT_MATH;
  UMBRA_CUDNN_CHECK(cudnnGetConvolutionMathType(conv.get(), &math),
                    "convolution " + conv.str());
  const Problem p{handle,
                  x.get(),
                  w.get(),
                  conv.get(),
                  y.get(),
                  math,
                  StrCat("x ", x.str(), ", w ", w.str(), ", ", conv.str(),
                         ", y ", y.str())};
  const std::string key = StrCat(p.text, ", device ", GpuCurrentDevice());
  static std::mutex mutex;
  static auto* cache = new std::map<std::string, ConvolutionAlgorithms>();
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache->find(key);
  if (it != cache->end()) return it->second;
  ConvolutionAlgorithms algos;
  Choose<ForwardSearch>(p, &algos.forward, &algos.forward_bytes);
  Choose<BackwardDataSearch>(p, &algos.backward_data,
                             &algos.backward_data_bytes);
  Choose<BackwardFilterSearch>(p, &algos.backward_filter,
                               &algos.backward_filter_bytes);
  cache->emplace(key, algos);
  return algos;
}

}  // namespace cudnn
}  // namespace layers
}  // namespace umbra
