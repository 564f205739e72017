// Broadcasting chainers: a lower-rank expression repeated along new or
// size-1 axes, evaluated lazily (no copy is made).
//
//   broadcast<d>(vec, shape)          1-D vec becomes dimension d of `shape`
//   broadcast_scalar(one, shape)      1-D expression of size 1 to `shape`
//   broadcast_with_axis(src, a, n)    inserts a new axis of size n after axis a
//                                     (a = -1 inserts it in front)
//   broadcast_keepdim(src, a, n)      stretches the size-1 axis a to size n
//   repmat(vec, n)                    (n, len) matrix whose rows are vec
//
// Example:
//   using namespace umbra;
//   // add a per-channel bias to a (batch, channel, height, width) output
//   out += broadcast<1>(bias, out.shape_);
//   probs = probs / broadcast_with_axis(row_sums, 0, probs.size(1));
#ifndef UMBRA_TENSOR_EXTENSION_BROADCAST_H_
#define UMBRA_TENSOR_EXTENSION_BROADCAST_H_

#include <type_traits>

#include "tensor/expr_engine.h"
#include "tensor/packet.h"

namespace umbra {
namespace expr {

// Dimension dimcast of a dimdst-D result of shape shape_ comes from the 1-D
// source; every other coordinate is ignored.
template <typename SrcExp, typename DType, int dimdst, int dimcast>
struct Broadcast1DExp
    : public MakeTensorExp<Broadcast1DExp<SrcExp, DType, dimdst, dimcast>,
                           SrcExp, dimdst, DType> {
  typename ExpHolder<SrcExp>::type src_;
  Broadcast1DExp(const SrcExp& src, const Shape<dimdst>& shape)
      : src_(detail::HoldRef(src)) {
    const Shape<1> sshape = ShapeCheck<1, SrcExp>::Check(src);
    if (sshape[0] != shape[dimcast]) {
      ThrowTensorError("broadcast<", dimcast, ">: source of shape ", sshape,
                       " does not match dimension ", dimcast,
                       " of the target shape ", shape);
    }
    this->shape_ = shape;
  }
};

template <typename SrcExp, typename DType, int dimdst, int dimcast>
class Plan<Broadcast1DExp<SrcExp, DType, dimdst, dimcast>, DType> {
 public:
  explicit Plan(const Broadcast1DExp<SrcExp, DType, dimdst, dimcast>& e)
      : src_(MakePlan(e.src_)),
        ystride_(e.shape_.ProdShape(dimcast + 1, dimdst - 1)),
        length_(e.shape_[dimcast]) {}
  UMBRA_XINLINE DType Eval(index_t y, index_t x) const {
    if (dimcast == dimdst - 1) return src_.Eval(0, x);
    return src_.Eval(0, (y / ystride_) % length_);
  }

 private:
  Plan<typename ExpHolder<SrcExp>::type, DType> src_;
  index_t ystride_, length_;
};

template <typename SrcExp, typename DType, int dimdst, int dimcast>
inline Plan<Broadcast1DExp<SrcExp, DType, dimdst, dimcast>, DType> MakePlan(
    const Broadcast1DExp<SrcExp, DType, dimdst, dimcast>& e) {
  return Plan<Broadcast1DExp<SrcExp, DType, dimdst, dimcast>, DType>(e);
}

// With packets: along the last dimension the source's own packets; along
// another one, one value per row of the 2-D view, looked up once per row
// (MapPacketPlan walks rows in order, each thread with its own copy of the
// plan), not with a division per element.
template <typename SrcExp, typename DType, int dimdst, int dimcast,
          PacketArch Arch>
class PacketPlan<Broadcast1DExp<SrcExp, DType, dimdst, dimcast>, DType, Arch> {
 public:
  explicit PacketPlan(const Broadcast1DExp<SrcExp, DType, dimdst, dimcast>& e)
      : src_(MakePacketPlan<Arch>(e.src_)),
        ystride_(e.shape_.ProdShape(dimcast + 1, dimdst - 1)),
        length_(e.shape_[dimcast]) {}
  UMBRA_CINLINE packet::Packet<DType, Arch> EvalPacket(index_t y,
                                                       index_t x) const {
    if constexpr (dimcast == dimdst - 1) {
      return src_.EvalPacket(0, x);
    } else {
      return packet::Packet<DType, Arch>::Fill(RowValue(y));
    }
  }
  UMBRA_CINLINE DType Eval(index_t y, index_t x) const {
    if constexpr (dimcast == dimdst - 1) {
      return src_.Eval(0, x);
    } else {
      return RowValue(y);
    }
  }

 private:
  DType RowValue(index_t y) const {
    if (y != row_) {
      row_ = y;
      row_value_ = src_.Eval(0, (y / ystride_) % length_);
    }
    return row_value_;
  }

  PacketPlan<typename std::decay<typename ExpHolder<SrcExp>::type>::type, DType,
             Arch>
      src_;
  index_t ystride_, length_;
  mutable index_t row_ = -1;
  mutable DType row_value_ = DType(0);
};

template <PacketArch Arch, typename SrcExp, typename DType, int dimdst,
          int dimcast>
inline PacketPlan<Broadcast1DExp<SrcExp, DType, dimdst, dimcast>, DType, Arch>
MakePacketPlan(const Broadcast1DExp<SrcExp, DType, dimdst, dimcast>& e) {
  return PacketPlan<Broadcast1DExp<SrcExp, DType, dimdst, dimcast>, DType,
                    Arch>(e);
}

template <typename SrcExp, typename DType, int dimdst, int dimcast,
          PacketArch Arch>
struct PacketCheck<Broadcast1DExp<SrcExp, DType, dimdst, dimcast>, Arch> {
  static constexpr bool kPass = PacketCheck<SrcExp, Arch>::kPass;
};

// broadcast<dimcast>(src, shape): the 1-D src (length shape[dimcast]) as a
// tensor of `shape`, constant along every other dimension.
template <int dimcast, typename SrcExp, typename DType, int etype, int dimdst>
inline Broadcast1DExp<SrcExp, DType, dimdst, dimcast> broadcast(
    const Exp<SrcExp, DType, etype>& src, Shape<dimdst> shape) {
  static_assert(ExpInfo<SrcExp>::kDim == 1,
                "broadcast<d>(src, shape): src must be a 1-D expression");
  static_assert(0 <= dimcast && dimcast < dimdst,
                "broadcast<d>(src, shape): d must be a dimension of shape");
  return Broadcast1DExp<SrcExp, DType, dimdst, dimcast>(src.self(), shape);
}

// repmat(src, nrow): the 1-D src of length n as an (nrow, n) matrix.
template <typename SrcExp, typename DType, int etype>
inline Broadcast1DExp<SrcExp, DType, 2, 1> repmat(
    const Exp<SrcExp, DType, etype>& src, index_t nrow) {
  static_assert(ExpInfo<SrcExp>::kDim == 1,
                "repmat(src, nrow): src must be a 1-D expression");
  const index_t n = ShapeCheck<1, SrcExp>::Check(src.self())[0];
  return broadcast<1>(src, Shape2(nrow, n));
}

// Every element is element 0 of a 1-D source of size 1.
template <typename SrcExp, typename DType, int dimdst>
struct BroadcastScalarExp
    : public MakeTensorExp<BroadcastScalarExp<SrcExp, DType, dimdst>, SrcExp,
                           dimdst, DType> {
  typename ExpHolder<SrcExp>::type src_;
  BroadcastScalarExp(const SrcExp& src, const Shape<dimdst>& shape)
      : src_(detail::HoldRef(src)) {
    const Shape<1> sshape = ShapeCheck<1, SrcExp>::Check(src);
    if (sshape[0] != 1) {
      ThrowTensorError("broadcast_scalar: source must have shape (1,), got ",
                       sshape, " (target shape ", shape, ")");
    }
    this->shape_ = shape;
  }
};

template <typename SrcExp, typename DType, int dimdst>
class Plan<BroadcastScalarExp<SrcExp, DType, dimdst>, DType> {
 public:
  explicit Plan(const BroadcastScalarExp<SrcExp, DType, dimdst>& e)
      : src_(MakePlan(e.src_)) {}
  UMBRA_XINLINE DType Eval(index_t y, index_t x) const {
    return src_.Eval(0, 0);
  }

 private:
  Plan<typename ExpHolder<SrcExp>::type, DType> src_;
};

template <typename SrcExp, typename DType, int dimdst>
inline Plan<BroadcastScalarExp<SrcExp, DType, dimdst>, DType> MakePlan(
    const BroadcastScalarExp<SrcExp, DType, dimdst>& e) {
  return Plan<BroadcastScalarExp<SrcExp, DType, dimdst>, DType>(e);
}

// broadcast_scalar(src, shape): the single element of the 1-D src (shape
// (1,), e.g. a loss or a learned scale) repeated to `shape`.
template <typename SrcExp, typename DType, int etype, int dimdst>
inline BroadcastScalarExp<SrcExp, DType, dimdst> broadcast_scalar(
    const Exp<SrcExp, DType, etype>& src, Shape<dimdst> shape) {
  static_assert(ExpInfo<SrcExp>::kDim == 1,
                "broadcast_scalar(src, shape): src must be a 1-D expression "
                "of shape (1,)");
  return BroadcastScalarExp<SrcExp, DType, dimdst>(src.self(), shape);
}

// The dimsrc-D source with a new axis of size size_ inserted after `axis`
// (axis = -1: in front; axis = dimsrc - 1: at the end).
template <typename SrcExp, typename DType, int dimsrc>
struct BroadcastWithAxisExp
    : public MakeTensorExp<BroadcastWithAxisExp<SrcExp, DType, dimsrc>, SrcExp,
                           dimsrc + 1, DType> {
  static const int kDimDst = dimsrc + 1;
  typename ExpHolder<SrcExp>::type src_;
  // Product of the source dimensions after the inserted axis.
  index_t trailing_;
  index_t size_;
  // Last dimension of the source.
  index_t last_;
  BroadcastWithAxisExp(const SrcExp& src, int axis, index_t size)
      : src_(detail::HoldRef(src)), trailing_(1), size_(size) {
    const Shape<dimsrc> sshape = ShapeCheck<dimsrc, SrcExp>::Check(src);
    if (axis < -1 || axis >= dimsrc) {
      ThrowTensorError("broadcast_with_axis: axis ", axis,
                       " out of range [-1, ", dimsrc - 1, "] for source ",
                       sshape);
    }
    for (int i = 0; i <= axis; ++i) this->shape_[i] = sshape[i];
    this->shape_[axis + 1] = size;
    for (int i = axis + 1; i < dimsrc; ++i) {
      trailing_ *= sshape[i];
      this->shape_[i + 1] = sshape[i];
    }
    last_ = sshape[dimsrc - 1];
  }
};

// The plan of both axis broadcasts: flat element i of the result reads flat
// element (i / trailing / size) * trailing + i % trailing of the source, where
// `trailing` is the product of the dimensions after the broadcast axis and
// `size` its length in the result.
template <typename SrcExp, typename DType>
class AxisBroadcastPlan {
 public:
  AxisBroadcastPlan(const SrcExp& src, index_t dst_last, index_t src_last,
                    index_t trailing, index_t size)
      : src_(MakePlan(src)),
        dst_last_(dst_last),
        src_last_(src_last),
        trailing_(trailing),
        size_(size) {}
  UMBRA_XINLINE DType Eval(index_t y, index_t x) const {
    const index_t i = y * dst_last_ + x;
    const index_t z = i / trailing_ / size_ * trailing_ + i % trailing_;
    return src_.Eval(z / src_last_, z % src_last_);
  }

 private:
  Plan<SrcExp, DType> src_;
  index_t dst_last_, src_last_, trailing_, size_;
};

template <typename SrcExp, typename DType, int dimsrc>
class Plan<BroadcastWithAxisExp<SrcExp, DType, dimsrc>, DType>
    : public AxisBroadcastPlan<typename ExpHolder<SrcExp>::type, DType> {
 public:
  explicit Plan(const BroadcastWithAxisExp<SrcExp, DType, dimsrc>& e)
      : AxisBroadcastPlan<typename ExpHolder<SrcExp>::type, DType>(
            e.src_, e.shape_[dimsrc], e.last_, e.trailing_, e.size_) {}
};

template <typename SrcExp, typename DType, int dimsrc>
inline Plan<BroadcastWithAxisExp<SrcExp, DType, dimsrc>, DType> MakePlan(
    const BroadcastWithAxisExp<SrcExp, DType, dimsrc>& e) {
  return Plan<BroadcastWithAxisExp<SrcExp, DType, dimsrc>, DType>(e);
}

// broadcast_with_axis(src, axis, size): src with a new axis of `size`
// inserted after `axis` (-1 <= axis < rank); (3, 4) with axis 0 and size 5
// gives (3, 5, 4).
template <typename SrcExp, typename DType, int etype>
inline BroadcastWithAxisExp<SrcExp, DType, ExpInfo<SrcExp>::kDim>
broadcast_with_axis(const Exp<SrcExp, DType, etype>& src, int axis,
                    index_t size) {
  static_assert(ExpInfo<SrcExp>::kDim >= 1,
                "broadcast_with_axis: src must be a tensor expression, not a "
                "scalar");
  return BroadcastWithAxisExp<SrcExp, DType, ExpInfo<SrcExp>::kDim>(src.self(),
                                                                    axis, size);
}

// The source (same rank) with its size-1 axis axis_ stretched to size_.
template <typename SrcExp, typename DType, int dim>
struct BroadcastKeepDimExp
    : public MakeTensorExp<BroadcastKeepDimExp<SrcExp, DType, dim>, SrcExp, dim,
                           DType> {
  typename ExpHolder<SrcExp>::type src_;
  // Product of the dimensions after the axis.
  index_t trailing_;
  index_t size_;
  BroadcastKeepDimExp(const SrcExp& src, int axis, index_t size)
      : src_(detail::HoldRef(src)), trailing_(1), size_(size) {
    const Shape<dim> sshape = ShapeCheck<dim, SrcExp>::Check(src);
    if (axis < 0 || axis >= dim || sshape[axis] != 1) {
      ThrowTensorError("broadcast_keepdim: axis ", axis,
                       " must be a size-1 dimension of the source ", sshape);
    }
    this->shape_ = sshape;
    this->shape_[axis] = size;
    trailing_ = sshape.ProdShape(axis + 1, dim);
  }
};

template <typename SrcExp, typename DType, int dim>
class Plan<BroadcastKeepDimExp<SrcExp, DType, dim>, DType>
    : public AxisBroadcastPlan<typename ExpHolder<SrcExp>::type, DType> {
 public:
  // Only when the stretched axis is last (trailing_ == 1) does the source's
  // last dimension differ from the result's: it is 1.
  explicit Plan(const BroadcastKeepDimExp<SrcExp, DType, dim>& e)
      : AxisBroadcastPlan<typename ExpHolder<SrcExp>::type, DType>(
            e.src_, e.shape_[dim - 1], e.trailing_ == 1 ? 1 : e.shape_[dim - 1],
            e.trailing_, e.size_) {}
};

template <typename SrcExp, typename DType, int dim>
inline Plan<BroadcastKeepDimExp<SrcExp, DType, dim>, DType> MakePlan(
    const BroadcastKeepDimExp<SrcExp, DType, dim>& e) {
  return Plan<BroadcastKeepDimExp<SrcExp, DType, dim>, DType>(e);
}

// broadcast_keepdim(src, axis, size): src, whose dimension `axis` is 1, with
// that dimension repeated `size` times; (3, 1, 4) with axis 1 and size 5
// gives (3, 5, 4). The usual partner of reduce_keepdim.
template <typename SrcExp, typename DType, int etype>
inline BroadcastKeepDimExp<SrcExp, DType, ExpInfo<SrcExp>::kDim>
broadcast_keepdim(const Exp<SrcExp, DType, etype>& src, int axis,
                  index_t size) {
  static_assert(ExpInfo<SrcExp>::kDim >= 1,
                "broadcast_keepdim: src must be a tensor expression, not a "
                "scalar");
  return BroadcastKeepDimExp<SrcExp, DType, ExpInfo<SrcExp>::kDim>(src.self(),
                                                                   axis, size);
}

}  // namespace expr
}  // namespace umbra

#endif  // UMBRA_TENSOR_EXTENSION_BROADCAST_H_
