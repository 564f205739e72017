// The registry in a binary that links test_params (FullcParam, AllTypesParam)
// and registers DocExampleParam below.
#include "param/registry.h"

#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "param/param.h"
#include "param/test_params.h"

namespace umbra {
namespace param_test {
namespace {

struct DocExampleParam : public Parameter<DocExampleParam> {
  float eta;
  std::string metric;
  std::optional<int> seed;
  UMBRA_DECLARE_PARAMETER(DocExampleParam) {
    UMBRA_DECLARE_FIELD(eta).set_default(0.01f).set_lower_bound(0.0f).describe(
        "Learning rate | step size.\nApplied per batch.");
    UMBRA_DECLARE_FIELD(metric).describe("Evaluation metric.");
    UMBRA_DECLARE_FIELD(seed).set_default(std::nullopt);
    UMBRA_DECLARE_ALIAS(eta, lr);
    UMBRA_DECLARE_ALIAS(eta, learning_rate);
  }
};
UMBRA_REGISTER_PARAMETER(DocExampleParam);

struct EmptyParam : public Parameter<EmptyParam> {
  UMBRA_DECLARE_PARAMETER(EmptyParam) {}
};
UMBRA_REGISTER_PARAMETER(EmptyParam);

TEST(RegistryTest, ListsEveryStructInTheBinary) {
  EXPECT_EQ(ListParamStructs(),
            (std::vector<std::string>{"AllTypesParam", "DocExampleParam",
                                      "EmptyParam", "FullcParam"}));
  const std::vector<ParamStructInfo> all = AllParamStructs();
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[1].name, "DocExampleParam");
  EXPECT_EQ(all[1].doc, DocExampleParam::Doc());
  EXPECT_EQ(all[3].fields.size(), FullcParam::Fields().size());
}

TEST(RegistryTest, GetParamStructByNameOrSuggest) {
  const ParamStructInfo info = GetParamStruct("FullcParam");
  EXPECT_EQ(info.name, "FullcParam");
  EXPECT_EQ(info.doc, FullcParam::Doc());
  ASSERT_EQ(info.fields.size(), 9u);
  EXPECT_EQ(info.fields[0].name, "nhidden");
  try {
    GetParamStruct("FulcParam");
    FAIL() << "no ParamError";
  } catch (const ParamError& e) {
    EXPECT_STREQ(e.what(),
                 "unknown parameter struct 'FulcParam'; did you mean "
                 "'FullcParam'? Registered: "
                 "AllTypesParam, DocExampleParam, EmptyParam, FullcParam");
  }
  const std::string huge(10'000'000, 'P');
  try {
    GetParamStruct(huge);
    FAIL() << "no ParamError";
  } catch (const ParamError& e) {
    EXPECT_EQ(std::string(e.what()),
              "unknown parameter struct '" + std::string(80, 'P') +
                  "'... (10000000 bytes in all). Registered: AllTypesParam, "
                  "DocExampleParam, EmptyParam, FullcParam");
  }
}

TEST(RegistryTest, DuplicateNameIsRefused) {
  param::ParamManager other;
  other.set_name("FullcParam");
  try {
    param::internal::RegisterParamManager(&other);
    FAIL() << "no ParamError";
  } catch (const ParamError& e) {
    EXPECT_STREQ(e.what(), "parameter struct 'FullcParam' is registered twice");
  }
}

TEST(RegistryTest, MarkdownTable) {
  EXPECT_EQ(
      ParamFieldsToMarkdown("DocExampleParam", DocExampleParam::Fields()),
      "### DocExampleParam\n"
      "\n"
      "| key | type | default | description |\n"
      "| --- | --- | --- | --- |\n"
      "| `eta` | float in [0, inf) | `0.01` | Learning rate \\| step size. "
      "Applied per "
      "batch. Also accepted as `lr`, `learning_rate`. |\n"
      "| `metric` | string | required | Evaluation metric. |\n"
      "| `seed` | int or None | `None` |  |\n");
  EXPECT_EQ(ParamFieldsToMarkdown("EmptyParam", EmptyParam::Fields()),
            "### EmptyParam\n\nNo parameters.\n");
  const std::string all = AllParamStructsToMarkdown();
  EXPECT_EQ(all.find("### AllTypesParam\n"), 0u);
  EXPECT_NE(all.find("\n### DocExampleParam\n"), std::string::npos);
  EXPECT_NE(all.find("\n### FullcParam\n"), std::string::npos);
  EXPECT_LT(all.find("### EmptyParam"), all.find("### FullcParam"));
}

TEST(RegistryTest, DocOfTheExample) {
  EXPECT_EQ(DocExampleParam::Doc(),
            "eta : float in [0, inf), optional, default=0.01\n"
            "    Learning rate | step size.\n"
            "    Applied per batch.\n"
            "    Also accepted as: lr, learning_rate\n"
            "metric : string, required\n"
            "    Evaluation metric.\n"
            "seed : int or None, optional, default=None\n");
}

}  // namespace
}  // namespace param_test
}  // namespace umbra
