// The config-file layer of the trainer: cxxnet's config format read strictly
// into global settings, a network description and data iterator blocks.
//
//   ConfigEntry, ParseConfigText, ParseConfigFile,
//   ParseCommandLineOverrides                          config_lexer.h
//   SourceLocation, ConfigError                        config_error.h
//   NetConfig, LayerDeclaration, NodeInfo              net_config.h
//   IteratorChain, IteratorStage, IteratorRole         iterator_config.h
//   TrainConfig, BuildTrainConfig, LoadTrainConfig     train_config.h
//   ConfigSchema, KeySchema, ValidateTrainConfig,
//   LayerSettings, IteratorSettings, ToParamKwargs,
//   ConfigErrorFromParamError                          config_schema.h
//   ConfigNotice, ReadCxxnetForms                      cxxnet_notices.h
//   SeparateUpdaterSettings                            updater_settings.h
//
// Example:
//
//   #include "train/config/config.h"
//
//   using namespace umbra::train;
//   try {
//     TrainConfig config = LoadTrainConfig(argv[1], {argv + 2, argv + argc});
//     ValidateTrainConfig(config, schema);  // schema from the registries
//     for (const LayerDeclaration& layer : config.net.layers) {
//       std::vector<ConfigEntry> settings =
//           LayerSettings(config, layer, schema);
//       ...  // create layer.type, Init its params with ToParamKwargs(settings)
//     }
//   } catch (const ConfigError& e) {
//     std::cerr << e.what() << "\n";  // "mnist.conf:17: unknown key ..."
//     return 1;
//   }
#ifndef UMBRA_TRAIN_CONFIG_CONFIG_H_
#define UMBRA_TRAIN_CONFIG_CONFIG_H_

#include "train/config/config_error.h"
#include "train/config/config_lexer.h"
#include "train/config/config_schema.h"
#include "train/config/cxxnet_notices.h"
#include "train/config/iterator_config.h"
#include "train/config/net_config.h"
#include "train/config/train_config.h"
#include "train/config/updater_settings.h"

#endif  // UMBRA_TRAIN_CONFIG_CONFIG_H_
