"""The public headers of //tensor/extension, shared with //tensor (whose tensor.h includes them)."""

EXTENSION_HDRS = [
    "broadcast.h",
    "channel_pool.h",
    "choose_fill.h",
    "concat.h",
    "crop_pad.h",
    "extension.h",
    "mirror_flip.h",
    "one_hot.h",
    "pooling.h",
    "range.h",
    "reduce.h",
    "reshape.h",
    "slice.h",
    "softmax.h",
    "spatial_patch.h",
    "swapaxis.h",
    "take.h",
    "transpose.h",
    "upsampling.h",
]
