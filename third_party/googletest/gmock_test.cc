// Checks that gMock links through @com_google_googletest//:gtest: a mock, an
// expectation on it, and a container matcher.
#include "gmock/gmock.h"

#include <vector>

#include "gtest/gtest.h"

namespace {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual double Now() = 0;
};

class MockClock : public Clock {
 public:
  MOCK_METHOD(double, Now, (), (override));
};

double Elapsed(Clock& clock) {
  const double start = clock.Now();
  return clock.Now() - start;
}

TEST(GmockTest, ExpectationsAndMatchers) {
  MockClock clock;
  EXPECT_CALL(clock, Now())
      .WillOnce(testing::Return(1.5))
      .WillOnce(testing::Return(4.0));
  EXPECT_DOUBLE_EQ(Elapsed(clock), 2.5);
  EXPECT_THAT((std::vector<int>{3, 1, 2}),
              testing::UnorderedElementsAre(1, 2, 3));
}

}  // namespace
