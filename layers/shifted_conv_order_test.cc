#include "layers/shifted_conv_order.h"

#include "gtest/gtest.h"

namespace umbra {
namespace layers {
namespace {

// {channels, out_channels, kernel_y, kernel_x, dilate_y, dilate_x,
//  padded_height, row_pitch, out_width}: the ResNet's 16-channel 28x28.
const ShiftedConvShape kSmall{16, 16, 3, 3, 1, 1, 30, 29, 28};
// 256 channels of 112x112 by 3x3: 66 M multiply-adds per image.
const ShiftedConvShape kLarge{256, 256, 3, 3, 1, 1, 114, 113, 112};

TEST(ShiftedConvOrderTest, SmallImagesAreMeasuredWhole) {
  const ShiftedConvShape part = MeasuredShiftedConvPart(kSmall);
  EXPECT_EQ(part.padded_height, kSmall.padded_height);
  EXPECT_EQ(ShiftedConvOutHeight(part), 28);
}

TEST(ShiftedConvOrderTest, LargeImagesAreMeasuredOnTheirFirstRows) {
  const ShiftedConvShape part = MeasuredShiftedConvPart(kLarge);
  // 256 * 256 * 9 * 112 = 66 M products a row: one row.
  EXPECT_EQ(ShiftedConvOutHeight(part), 1);
  EXPECT_EQ(part.padded_height, 3);
  // 64 channels of 112 x 112 by 3x3: 580608 products a row, 13 rows.
  ShiftedConvShape narrower = kLarge;
  narrower.channels = narrower.out_channels = 64;
  EXPECT_EQ(ShiftedConvOutHeight(MeasuredShiftedConvPart(narrower)),
            kMeasuredProducts / (64 * 64 * 9 * 112));
  // Everything but the rows is the image's.
  EXPECT_EQ(part.channels, kLarge.channels);
  EXPECT_EQ(part.out_channels, kLarge.out_channels);
  EXPECT_EQ(part.row_pitch, kLarge.row_pitch);
  EXPECT_EQ(part.out_width, kLarge.out_width);
}

}  // namespace
}  // namespace layers
}  // namespace umbra
